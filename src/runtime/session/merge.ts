import { basicAuthorization } from '../../core/basic-auth.js';
import type { NameValuesList, PlanCredentials, RequestTemplate } from '../../compile/index.js';
import { cloneJson, isPlainObject } from '../../core/json-path.js';

/**
 * Merges a user's static credentials into a sign-in request (spec: HTTPRequestParameters merge
 * rules). Call it on the request AFTER templating: credentials are literal values, so a password
 * that happens to contain `{{` is sent as written and never read as a template.
 *
 * - headers (names ignore case), cookies and query parameters (names exact): a name present in both
 *   takes the credentials' values, in the request's position; other names are kept, the request's
 *   first. Every value of a name is kept (sent as repeated headers, cookies or parameters).
 *   Values stay raw here: {@link encodeCookieHeader} and {@link appendQuery} encode them once when
 *   the wire request is built.
 * - body: see {@link mergeBody}.
 * - HTTP Basic: when `credentials.basic` is `sign-in` and both `username` and `password` are set,
 *   and the merged headers have no `Authorization`, one is added ({@link basicAuthorization}).
 *   (`requests` users have no sign-in requests; their Basic is in the session, see `newSession`.)
 *
 * The inputs are not modified; header, cookie and query lists that nothing changes are shared
 * with the result.
 *
 * @example
 * mergeCredentials(
 *   { url: 'https://api.test/login', method: 'POST', headers: [], cookies: [], query: [], body: { a: 1 } },
 *   { headers: [{ name: 'X-Tenant', values: ['acme'] }], cookies: [], query: [], body: { b: 2 }, basic: 'none' },
 * ); // headers X-Tenant: acme, body { a: 1, b: 2 }
 */
export function mergeCredentials(request: RequestTemplate, credentials: PlanCredentials): RequestTemplate {
  let headers = mergeNameValues(request.headers, credentials.headers, true);
  const { username, password } = credentials;
  if (credentials.basic === 'sign-in' && username !== undefined && password !== undefined) {
    if (!headers.some((h) => h.name.toLowerCase() === 'authorization')) {
      headers = [...headers, { name: 'Authorization', values: [basicAuthorization(username, password)] }];
    }
  }
  const merged: RequestTemplate = {
    ...request,
    headers,
    cookies: mergeNameValues(request.cookies, credentials.cookies, false),
    query: mergeNameValues(request.query, credentials.query, false),
  };
  const body = mergeBody(request.body, credentials.body);
  if (body === undefined) delete merged.body;
  else merged.body = body;
  return merged;
}

/**
 * Merges two name/values lists; entries of `overrides` replace same-named entries of `base` (in
 * `base`'s position), new names are appended. The inputs are not modified; with no overrides the
 * result is `base` itself (most sign-ins merge no headers, cookies or query parameters).
 *
 * @example
 * mergeNameValues([{ name: 'a', values: ['1'] }], [{ name: 'A', values: ['2'] }], true); // [{ name: 'a', values: ['2'] }]
 */
export function mergeNameValues(base: NameValuesList[], overrides: NameValuesList[], ignoreCase: boolean): NameValuesList[] {
  if (overrides.length === 0) return base;
  const key = (name: string) => (ignoreCase ? name.toLowerCase() : name);
  const out = base.map((entry) => ({ name: entry.name, values: [...entry.values] }));
  for (const entry of overrides) {
    const existing = out.find((e) => key(e.name) === key(entry.name));
    if (existing) existing.values = [...entry.values];
    else out.push({ name: entry.name, values: [...entry.values] });
  }
  return out;
}

/**
 * The spec's body merge rules (request body, then the user's credentials body):
 * 1. both JSON objects: merged deeply; on a conflict the credentials' value wins, except that two
 *    arrays under the same key are concatenated (the Python original's merger); the request's keys
 *    come first;
 * 2. both strings: concatenated, request first, nothing inserted between them;
 * 3. different types (or two non-object JSON values): the credentials body replaces the request's.
 *
 * An absent body on either side yields the other one. The inputs are not modified.
 *
 * @example
 * mergeBody({ a: { x: 1 } }, { a: { y: 2 } }); // { a: { x: 1, y: 2 } }
 * mergeBody('a=1', '&b=2');                    // 'a=1&b=2'
 * mergeBody('a=1', { b: 2 });                  // { b: 2 }
 */
export function mergeBody(requestBody: unknown, credentialsBody: unknown): unknown {
  if (credentialsBody === undefined) return clone(requestBody);
  if (requestBody === undefined) return clone(credentialsBody);
  if (isPlainObject(requestBody) && isPlainObject(credentialsBody)) return deepMerge(requestBody, credentialsBody);
  if (typeof requestBody === 'string' && typeof credentialsBody === 'string') return requestBody + credentialsBody;
  return clone(credentialsBody);
}

function deepMerge(base: Record<string, unknown>, override: Record<string, unknown>): Record<string, unknown> {
  const out = clone(base) as Record<string, unknown>;
  for (const [key, value] of Object.entries(override)) {
    const current = out[key];
    if (isPlainObject(current) && isPlainObject(value)) out[key] = deepMerge(current, value);
    else if (Array.isArray(current) && Array.isArray(value)) out[key] = [...current, ...(clone(value) as unknown[])];
    else out[key] = clone(value);
  }
  return out;
}

function clone(value: unknown): unknown {
  return value === undefined ? undefined : cloneJson(value);
}

/**
 * The value of a `Cookie` request header for the given cookies: `name=value` pairs joined by `; `,
 * one pair per value, each value URL-encoded exactly once (`a b&c` -> `a%20b%26c`). Names are
 * sent as written.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6265#section-4.2.1
 * @example
 * encodeCookieHeader([{ name: 'sid', values: ['a b&c'] }, { name: 'lang', values: ['en'] }]); // 'sid=a%20b%26c; lang=en'
 */
export function encodeCookieHeader(cookies: NameValuesList[]): string {
  return cookies.flatMap((c) => c.values.map((v) => `${c.name}=${encodeURIComponent(v)}`)).join('; ');
}

/**
 * Appends query parameters to a URL, names and values URL-encoded exactly once, after any query the
 * URL already has and before its `#fragment`. An empty list returns `url` unchanged.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-3.4
 * @example
 * appendQuery('https://api.test/x?page=2#top', [{ name: 'q', values: ['a b&c'] }]);
 * // 'https://api.test/x?page=2&q=a%20b%26c#top'
 */
export function appendQuery(url: string, query: NameValuesList[]): string {
  const pairs = query.flatMap((q) => q.values.map((v) => `${encodeURIComponent(q.name)}=${encodeURIComponent(v)}`));
  if (pairs.length === 0) return url;
  const hashAt = url.indexOf('#');
  const base = hashAt === -1 ? url : url.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : url.slice(hashAt);
  const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${separator}${pairs.join('&')}${fragment}`;
}
