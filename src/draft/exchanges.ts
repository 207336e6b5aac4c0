import type { HarEntry, HarPair } from './har-schema.js';
import { HAR_LIMITS } from './har-limits.js';
import { FORBIDDEN_KEYS, jsonNesting } from './json-safe.js';

/** A body as the drafter reads it: its text, and its JSON value or form fields when it is one. */
export interface Body {
  /** The `Content-Type`'s media type, lower case (`application/json`). */
  mime: string;
  text: string;
  /** The parsed JSON, when the text is JSON (at most `HAR_LIMITS.bodyDepth` deep, no `__proto__`). */
  json?: unknown;
  /** The fields of a form-encoded body, in order. */
  form?: HarPair[];
}

/** One recorded exchange, normalised: what the drafter reasons about. */
export interface Exchange {
  /** Index in `log.entries`, for evidence lines. */
  index: number;
  method: string;
  url: URL;
  requestHeaders: HarPair[];
  /** The cookies the request carried. */
  requestCookies: HarPair[];
  requestBody?: Body;
  status: number;
  responseHeaders: HarPair[];
  /** The cookies the response set (`Set-Cookie`), name and value. */
  setCookies: HarPair[];
  responseBody?: Body;
}


/**
 * The HAR's http(s) exchanges, normalised (other schemes, `data:` URLs and unparsable URLs are
 * left out): cookies from the HAR's lists or else from the headers, bodies decoded (base64) and
 * parsed when JSON or form-encoded, each cut to `HAR_LIMITS.bodyChars`.
 *
 * @example
 * const exchanges = toExchanges(readHarFile('login.har', 'login.har'));
 */
export function toExchanges(entries: readonly HarEntry[]): Exchange[] {
  const out: Exchange[] = [];
  entries.forEach((entry, index) => {
    let url: URL;
    try {
      url = new URL(entry.request.url);
    } catch {
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
    const { request, response } = entry;
    const post = request.postData;
    const requestMime = mimeOf(post?.mimeType ?? header(request.headers, 'content-type') ?? '');
    const requestBody = post === undefined ? undefined : requestBodyOf(requestMime, post.text, post.params);
    const content = response.content;
    const responseText = content?.text === undefined ? undefined : decoded(content.text, content.encoding);
    out.push({
      index,
      method: request.method.toUpperCase(),
      url,
      requestHeaders: request.headers.filter((h) => !h.name.startsWith(':')),
      requestCookies: request.cookies?.length ? request.cookies : cookieHeader(header(request.headers, 'cookie')),
      ...(requestBody && { requestBody }),
      status: response.status,
      responseHeaders: response.headers.filter((h) => !h.name.startsWith(':')),
      setCookies: response.cookies?.length ? response.cookies : setCookieHeaders(response.headers),
      ...(responseText !== undefined && { responseBody: parsedBody(mimeOf(content?.mimeType ?? header(response.headers, 'content-type') ?? ''), responseText) }),
    });
  });
  return out;
}

/**
 * The first value of a header, by case-insensitive name.
 *
 * @example
 * header([{ name: 'Content-Type', value: 'text/html' }], 'content-type'); // 'text/html'
 */
export function header(headers: readonly HarPair[], name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers.find((h) => h.name.toLowerCase() === lower)?.value;
}

/**
 * JSON text parsed, or undefined when it is not JSON, nests deeper than `HAR_LIMITS.bodyDepth`
 * or has a key that would reach a prototype: such a body is then read as text only.
 *
 * @example
 * safeJson('{"a":1}'); // { a: 1 }
 */
export function safeJson(text: string): unknown {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined;
  if (jsonNesting(trimmed, HAR_LIMITS.bodyDepth) > HAR_LIMITS.bodyDepth) return undefined;
  try {
    return JSON.parse(trimmed, (key: string, value: unknown) => {
      if (FORBIDDEN_KEYS.has(key)) throw new Error('forbidden key');
      return value;
    });
  } catch {
    return undefined;
  }
}

function requestBodyOf(mime: string, text: string | undefined, params: Array<{ name: string; value?: string }> | undefined): Body | undefined {
  if (mime === 'application/x-www-form-urlencoded' || (text === undefined && params?.length)) {
    // The body's text is what was sent; `params` is decoded by Playwright but left encoded by other
    // writers, so decoding them again would turn an escaped `%3A` inside a value (a SAML `AuthState`
    // holding a URL) into `:`. They are read only when the text is missing.
    const form = text
      ? [...new URLSearchParams(text.slice(0, HAR_LIMITS.bodyChars))].map(([name, value]) => ({ name, value }))
      : (params ?? []).map((p) => ({ name: safeDecode(p.name), value: safeDecode(p.value ?? '') }));
    return { mime: mime || 'application/x-www-form-urlencoded', text: (text ?? '').slice(0, HAR_LIMITS.bodyChars), form };
  }
  if (text === undefined) return undefined;
  return parsedBody(mime, text.slice(0, HAR_LIMITS.bodyChars));
}

function parsedBody(mime: string, text: string): Body {
  const cut = text.slice(0, HAR_LIMITS.bodyChars);
  const json = mime.includes('json') || /^\s*[[{]/.test(cut.slice(0, 64)) ? safeJson(cut) : undefined;
  return json === undefined ? { mime, text: cut } : { mime, text: cut, json };
}

function decoded(text: string, encoding: string | undefined): string {
  if (encoding !== 'base64') return text.slice(0, HAR_LIMITS.bodyChars);
  return Buffer.from(text.slice(0, Math.ceil((HAR_LIMITS.bodyChars * 4) / 3) + 4), 'base64').toString('utf8').slice(0, HAR_LIMITS.bodyChars);
}

function mimeOf(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/** Form parameters of a HAR may be written percent-encoded (Chrome) or decoded (Playwright). */
function safeDecode(text: string): string {
  if (!/%[0-9a-f]{2}|\+/i.test(text)) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function cookieHeader(value: string | undefined): HarPair[] {
  if (value === undefined) return [];
  return value
    .split(';')
    .slice(0, HAR_LIMITS.pairs)
    .flatMap((part) => {
      const eq = part.indexOf('=');
      return eq > 0 ? [{ name: part.slice(0, eq).trim(), value: part.slice(eq + 1).trim() }] : [];
    });
}

function setCookieHeaders(headers: readonly HarPair[]): HarPair[] {
  return headers
    .filter((h) => h.name.toLowerCase() === 'set-cookie')
    .flatMap((h) => h.value.split('\n'))
    .flatMap((line) => {
      const first = line.split(';')[0] ?? '';
      const eq = first.indexOf('=');
      return eq > 0 ? [{ name: first.slice(0, eq).trim(), value: first.slice(eq + 1).trim() }] : [];
    });
}
