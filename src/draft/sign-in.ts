import { isPlainObject } from '../core/json-path.js';
import { header, type Exchange } from './exchanges.js';
import { isFlagValue, isOtpName, isPlainUsernameName, isPasswordName, isUsernameName } from './heuristics.js';

/** A field of a request body: its name (form name or JSON dot path) and recorded value. */
export interface Field {
  name: string;
  value: string;
}

/** The exchange that signs the user in, and what kind of sign-in it is. */
export type SignIn =
  | { kind: 'oauth'; exchange: Exchange; grant: 'password' | 'client_credentials'; clientId?: string; clientSecret?: string; clientAuth: 'basic' | 'post'; username?: Field; password?: Field; scope?: string; unsent?: string[] }
  | { kind: 'graphql'; exchange: Exchange; query: string; variables: Record<string, unknown>; username?: Field; password: Field }
  | { kind: 'fields'; exchange: Exchange; username?: Field; password: Field; otp?: Field }
  | { kind: 'basic'; exchange: Exchange; username: string; password: string };

/** A sign-in the recording tried and the server refused, for the error when no other is found. */
export interface RefusedSignIn {
  exchange: Exchange;
  kind: SignIn['kind'];
}

/**
 * Finds the sign-in of a recording: the last exchange that succeeded (status below 400; a GraphQL
 * answer without `errors`) and carries an OAuth token request (`grant_type` `password` or
 * `client_credentials`), a GraphQL mutation with a password-like variable, a password-like form
 * or JSON field, or else the first request with HTTP Basic. Refused attempts are returned too.
 *
 * @example
 * const { signIn } = findSignIn(exchanges);
 * signIn?.kind; // 'fields'
 */
export function findSignIn(exchanges: readonly Exchange[]): { signIn?: SignIn; refused: RefusedSignIn[] } {
  const refused: RefusedSignIn[] = [];
  let found: SignIn | undefined;
  let basic: SignIn | undefined;
  for (const exchange of exchanges) {
    const candidate = bodySignIn(exchange) ?? basicSignIn(exchange);
    if (!candidate) continue;
    if (!succeeded(exchange) || formShownAgain(candidate)) {
      refused.push({ exchange, kind: candidate.kind });
      continue;
    }
    if (candidate.kind === 'basic') basic ??= candidate;
    else found = candidate;
  }
  const signIn = found ?? basic;
  return signIn ? { signIn, refused } : { refused };
}

/**
 * The fields of a request body: form fields by name, JSON string leaves by dot path (numbers and
 * booleans are not credentials), at most 3 levels deep.
 *
 * @example
 * bodyFields(exchange); // [{ name: 'username', value: 'alice' }, { name: 'password', value: '...' }]
 */
export function bodyFields(exchange: Exchange): Field[] {
  const body = exchange.requestBody;
  if (!body) return [];
  if (body.form) return body.form;
  const out: Field[] = [];
  const walk = (value: unknown, path: string, depth: number): void => {
    if (typeof value === 'string' && path) out.push({ name: path, value });
    else if (isPlainObject(value) && depth < 3) {
      for (const [key, item] of Object.entries(value)) if (!key.includes('.')) walk(item, path ? `${path}.${key}` : key, depth + 1);
    }
  };
  walk(body.json, '', 0);
  return out;
}

/**
 * The last segment of a field name: `user[password]` and `user.password` are passwords.
 *
 * @example
 * leafName('user[password]'); // 'password'
 */
export function leafName(name: string): string {
  return name.replace(/\]$/, '').split(/[.[\]]+/).filter(Boolean).at(-1) ?? name;
}

function bodySignIn(exchange: Exchange): SignIn | undefined {
  const body = exchange.requestBody;
  if (!body) return undefined;
  const fields = bodyFields(exchange);
  const get = (name: string) => fields.find((f) => f.name === name);
  const grant = get('grant_type')?.value;
  if (grant === 'password' || grant === 'client_credentials') return oauthSignIn(exchange, grant, get);
  const json = body.json;
  if (isPlainObject(json) && typeof json.query === 'string' && /\bmutation\b/.test(json.query) && isPlainObject(json.variables)) {
    const variables = json.variables;
    const strings = Object.entries(variables).filter((e): e is [string, string] => typeof e[1] === 'string');
    const password = strings.find(([name]) => isPasswordName(name));
    if (password) {
      const username = strings.find(([name]) => isUsernameName(name));
      return {
        kind: 'graphql', exchange, query: json.query, variables,
        password: { name: password[0], value: password[1] },
        ...(username && { username: { name: username[0], value: username[1] } }),
      };
    }
  }
  const password = fields.find((f) => isPasswordName(leafName(f.name)) && f.value !== '');
  if (!password) return undefined;
  // A "remember me" box may come before the login field, and a submit button may be named `login`.
  const logins = fields.filter((f) => isUsernameName(leafName(f.name)) && f.value !== '' && !isFlagValue(f.value) && f !== password);
  const username = logins.find((f) => isPlainUsernameName(leafName(f.name))) ?? logins[0];
  const otp = fields.find((f) => isOtpName(leafName(f.name)));
  return { kind: 'fields', exchange, password, ...(username && { username }), ...(otp && { otp }) };
}

/** The token request's parameters that the `oauth_userpass` and `oauth_client_credentials` presets send (RFC 6749 4.3.2, 4.4.2, 2.3.1). */
const OAUTH_PARAMS = new Set(['grant_type', 'username', 'password', 'scope', 'client_id', 'client_secret']);

function oauthSignIn(exchange: Exchange, grant: 'password' | 'client_credentials', get: (name: string) => Field | undefined): SignIn {
  const basic = decodeBasic(header(exchange.requestHeaders, 'authorization'));
  const username = get('username');
  const password = get('password');
  const scope = get('scope')?.value;
  // What the oauth presets cannot send: an empty scope (Node-RED's editor sends `scope=` and its
  // tokens are worthless without it), or a parameter beyond the grant's own.
  const unsent = bodyFields(exchange).map((f) => f.name).filter((name) => !OAUTH_PARAMS.has(name) || (name === 'scope' && scope === ''));
  const clientId = basic ? formDecoded(basic.username) : get('client_id')?.value;
  const clientSecret = basic ? formDecoded(basic.password) : get('client_secret')?.value;
  return {
    kind: 'oauth', exchange, grant, clientAuth: basic ? 'basic' : 'post',
    ...(clientId !== undefined && { clientId }),
    ...(clientSecret !== undefined && { clientSecret }),
    ...(username && { username }),
    ...(password && { password }),
    ...(scope !== undefined && scope !== '' && { scope }),
    ...(unsent.length > 0 && { unsent }),
  };
}

function basicSignIn(exchange: Exchange): SignIn | undefined {
  const basic = decodeBasic(header(exchange.requestHeaders, 'authorization'));
  return basic ? { kind: 'basic', exchange, ...basic } : undefined;
}

/**
 * `Authorization: Basic` decoded into its user and password (RFC 7617), or undefined.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7617#section-2
 * @example
 * decodeBasic('Basic YWxpY2U6cHc='); // { username: 'alice', password: 'pw' }
 */
export function decodeBasic(value: string | undefined): { username: string; password: string } | undefined {
  const encoded = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(value ?? '')?.[1];
  if (!encoded) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** RFC 6749 2.3.1 form-encodes a client's id and secret inside Basic. */
function formDecoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * Whether a form sign-in was answered with its login form again: a page holding a password input
 * of the same name. Many applications (WordPress, Redmine) refuse a password so, with a 200.
 */
function formShownAgain(signIn: SignIn): boolean {
  if (signIn.kind !== 'fields') return false;
  const page = signIn.exchange.responseBody;
  if (!page || page.json !== undefined || !/html/.test(page.mime)) return false;
  const field = `name="${signIn.password.name}"`;
  let at = page.text.indexOf(field);
  for (let n = 0; at >= 0 && n < 50; n++) {
    const start = page.text.lastIndexOf('<', at);
    const end = page.text.indexOf('>', at);
    if (start >= 0 && end > at && at - start < 2000 && /^<input\b[^>]*\stype="password"/i.test(page.text.slice(start, end + 1))) return true;
    at = page.text.indexOf(field, at + field.length);
  }
  return false;
}

/**
 * Whether the server accepted the exchange: below 400, and a GraphQL answer without `errors`.
 *
 * @example
 * succeeded(exchange); // false for a 401, or a 200 with {"errors": [...]}
 */
export function succeeded(exchange: Exchange): boolean {
  if (exchange.status >= 400 || exchange.status === 0) return false;
  const json = exchange.responseBody?.json;
  return !(isPlainObject(json) && Array.isArray(json.errors) && json.errors.length > 0);
}
