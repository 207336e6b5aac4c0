import type { SignInResult } from '../session/session.js';

/**
 * The session to use after a refresh (spec: UserRefresh.keep).
 * - `keep: false`: the refreshed session, as is.
 * - `keep: true`: the previous session with the refreshed one laid over it: headers (names ignoring
 *   case), cookies (by name), query parameters and body `set` paths of the refreshed session replace
 *   those of the same name; the previous ones it did not renew stay. Its timing (`createdAt`,
 *   `expiresAt`), `origin` and body `merge` are the refreshed session's, and its digest state when
 *   it has one; variables and localStorage origins are merged the same way, the refreshed winning.
 *
 * Neither input is modified.
 *
 * @example
 * mergeRefreshed(old, fresh, true).headers; // { Authorization: [fresh token], 'X-Api-Key': [old key] }
 */
export function mergeRefreshed(previous: SignInResult, refreshed: SignInResult, keep: boolean): SignInResult {
  if (!keep) return refreshed;
  const merged: SignInResult = structuredClone(refreshed);
  const renewedHeaders = new Set(Object.keys(refreshed.headers).map((n) => n.toLowerCase()));
  const headers: Record<string, string[]> = {};
  for (const [name, values] of Object.entries(previous.headers)) {
    if (!renewedHeaders.has(name.toLowerCase())) headers[name] = [...values];
  }
  merged.headers = { ...headers, ...merged.headers };
  const renewedCookies = new Set(refreshed.cookies.map((c) => c.name));
  merged.cookies = [...previous.cookies.filter((c) => !renewedCookies.has(c.name)).map((c) => ({ ...c })), ...merged.cookies];
  merged.query = { ...structuredClone(previous.query), ...merged.query };
  merged.body.set = { ...previous.body.set, ...merged.body.set };
  merged.variables = { ...previous.variables, ...merged.variables };
  const renewedOrigins = new Set(refreshed.origins.map((o) => o.origin));
  merged.origins = [...structuredClone(previous.origins.filter((o) => !renewedOrigins.has(o.origin))), ...merged.origins];
  if (!merged.digest && previous.digest) merged.digest = structuredClone(previous.digest);
  return merged;
}
