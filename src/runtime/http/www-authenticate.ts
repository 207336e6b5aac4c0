/**
 * One challenge of a `WWW-Authenticate` header: its scheme and either a token68 or auth-params.
 * Parameter names are lower-cased (they are case-insensitive); values are unquoted.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-11.6.1
 */
export interface AuthChallenge {
  /** As the server wrote it (`Digest`, `Basic`, ...); compare case-insensitively. */
  scheme: string;
  /** The token68 form (`Negotiate abc==`), when the challenge has one. */
  token68?: string;
  params: Record<string, string>;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*(?=[ \t]*(?:,|$))/;

/**
 * Parses every challenge of every `WWW-Authenticate` value: several challenges in one value
 * (`Basic realm="a", Digest realm="b", nonce="n"`), quoted values with commas and escapes inside,
 * unquoted values, token68 challenges. Lenient where servers are sloppy: an unquoted value runs to
 * the next comma or space, so `nonce=abc/def` is read whole.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-11.6.1
 * @example
 * parseAuthChallenges(['Basic realm="x", Digest realm="a, b", nonce=n1']);
 * // [{ scheme: 'Basic', params: { realm: 'x' } }, { scheme: 'Digest', params: { realm: 'a, b', nonce: 'n1' } }]
 */
export function parseAuthChallenges(values: readonly string[]): AuthChallenge[] {
  const challenges: AuthChallenge[] = [];
  for (const value of values) challenges.push(...parseOne(value));
  return challenges;
}

function parseOne(text: string): AuthChallenge[] {
  const out: AuthChallenge[] = [];
  let current: AuthChallenge | undefined;
  let i = 0;
  while (i < text.length) {
    i = skip(text, i, /[\s,]/);
    if (i >= text.length) break;
    const token = TOKEN.exec(text.slice(i))?.[0];
    if (!token) {
      i++;
      continue;
    }
    const afterToken = skip(text, i + token.length, /[ \t]/);
    if (text[afterToken] === '=' && current) {
      const { value, end } = readValue(text, skip(text, afterToken + 1, /[ \t]/));
      const name = token.toLowerCase();
      if (!(name in current.params)) current.params[name] = value;
      i = end;
      continue;
    }
    current = { scheme: token, params: {} };
    out.push(current);
    const spaced = afterToken > i + token.length;
    i = afterToken;
    const token68 = spaced ? TOKEN68.exec(text.slice(afterToken))?.[0] : undefined;
    if (token68) {
      current.token68 = token68;
      i += token68.length;
    }
  }
  return out;
}

function skip(text: string, from: number, chars: RegExp): number {
  let i = from;
  while (i < text.length && chars.test(text[i] as string)) i++;
  return i;
}

function readValue(text: string, from: number): { value: string; end: number } {
  if (text[from] !== '"') {
    let end = from;
    while (end < text.length && !/[\s,]/.test(text[end] as string)) end++;
    return { value: text.slice(from, end), end };
  }
  let value = '';
  let i = from + 1;
  while (i < text.length && text[i] !== '"') {
    if (text[i] === '\\' && i + 1 < text.length) i++;
    value += text[i];
    i++;
  }
  return { value, end: i + 1 };
}

/** What a Bearer challenge's `error` means for the user, by RFC 6750 section 3.1 code. */
const BEARER_HINTS: Record<string, string> = {
  insufficient_scope:
    'The user is signed in, but its token lacks a scope this request needs (named above): ask for it in the user\'s `scopes`, and check that the server grants it to this user and client. The password is not the problem.',
  invalid_token: 'The server refused the token: it may have expired or been revoked, or be meant for another audience.',
  invalid_request: 'The server finds the request malformed: check how the token is sent (the injection).',
};

/** A Bearer challenge's refusal (RFC 6750 section 3.1), as an error shows it. */
export interface BearerRefusal {
  /** `insufficient_scope: access token missing openid scope (needs scope "openid")`. */
  description: string;
  /** What to do about it, when the code is one RFC 6750 defines. */
  hint?: string;
}

/**
 * The `error` of a `Bearer` challenge in a response's `WWW-Authenticate` headers, with its
 * `error_description` and the `scope` it needs: what a resource server says when it refuses a
 * token. Undefined when no Bearer challenge carries an `error`. Each part is cut to 200 characters.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-3.1
 * @example
 * bearerRefusal(['Bearer realm="api", error="insufficient_scope", scope="admin"']);
 * // { description: 'insufficient_scope (needs scope "admin")', hint: 'The user is signed in, but ...' }
 */
export function bearerRefusal(wwwAuthenticate: readonly string[]): BearerRefusal | undefined {
  const challenge = parseAuthChallenges(wwwAuthenticate.slice(0, 20)).find(
    (c) => c.scheme.toLowerCase() === 'bearer' && typeof c.params.error === 'string' && c.params.error !== '',
  );
  if (!challenge) return undefined;
  const cut = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text);
  const { error, error_description: about, scope } = challenge.params as Record<string, string | undefined>;
  const code = cut(error as string);
  const description = `${code}${about ? `: ${cut(about)}` : ''}${scope ? ` (needs scope "${cut(scope)}")` : ''}`;
  const hint = Object.hasOwn(BEARER_HINTS, code) ? BEARER_HINTS[code] : undefined;
  return { description, ...(hint === undefined ? {} : { hint }) };
}
