import { Cookie, CookieJar } from 'tough-cookie';
import type { ObservedCookie } from './observation.js';

/**
 * The cookies of one sign-in. The tough-cookie jar behind it is made when the first `Set-Cookie`
 * arrives: most token endpoints set none, and a sign-in that gets none needs no lookups.
 */
export interface SignInJar {
  /** Made by {@link storeSetCookies}; absent while no response set a cookie. */
  cookies?: CookieJar;
}

/**
 * A fresh cookie jar for one sign-in: every request of the sign-in sends what earlier responses
 * set, as a browser would.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6265#section-5.3
 * @example
 * const jar = newCookieJar();
 * await sendRequest(request, { ...options, jar });
 */
export function newCookieJar(): SignInJar {
  return {};
}

/**
 * Stores the `Set-Cookie` values of a response received from `url` and returns them as observed
 * cookies, in order. A value the jar refuses (wrong domain, `Secure` over http) is still observed,
 * since extractions read what the server said; it just is not sent back.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6265#section-5.2
 * @example
 * await storeSetCookies(jar, 'http://a.test/login', ['sid=abc; Path=/; HttpOnly']);
 * // [{ name: 'sid', value: 'abc', domain: 'a.test', path: '/', httpOnly: true, ... }]
 */
export async function storeSetCookies(jar: SignInJar, url: string, setCookies: string[]): Promise<ObservedCookie[]> {
  const observed: ObservedCookie[] = [];
  if (setCookies.length === 0) return observed;
  // allowSpecialUseDomain: sign-ins to `localhost` and `*.test` hosts keep their cookies.
  const cookies = (jar.cookies ??= new CookieJar(undefined, { looseMode: true, rejectPublicSuffixes: false, allowSpecialUseDomain: true }));
  for (const header of setCookies) {
    const stored = await cookies.setCookie(header, url, { ignoreError: true });
    const cookie = stored ?? Cookie.parse(header, { loose: true });
    if (cookie) observed.push(toObservedCookie(cookie, new URL(url)));
  }
  return observed;
}

/**
 * Whether the jar was ever given a cookie (through {@link storeSetCookies}): a cheap test that
 * spares the lookups of a sign-in that sets no cookies.
 *
 * @example
 * if (hasCookies(jar)) header = await jarCookieHeader(jar, url);
 */
export function hasCookies(jar: SignInJar): boolean {
  return jar.cookies !== undefined;
}

/**
 * The `Cookie` header value the jar holds for `url` (empty string when none).
 *
 * @example
 * await jarCookieHeader(jar, 'http://a.test/done'); // 'sid=abc'
 */
export async function jarCookieHeader(jar: SignInJar, url: string): Promise<string> {
  return jar.cookies ? jar.cookies.getCookieString(url) : '';
}

/**
 * Every cookie the jar holds now, in the order they were set, expired ones left out: what a
 * sign-in's responses left for the session to send.
 *
 * @example
 * session.cookies.push(...(await jarContents(jar)));
 */
export async function jarContents(jar: SignInJar, now = Date.now()): Promise<ObservedCookie[]> {
  if (!jar.cookies) return [];
  const cookies = await jar.cookies.store.getAllCookies();
  return cookies
    .filter((cookie) => {
      const expiry = cookie.expiryTime();
      return expiry === undefined || expiry > now;
    })
    .sort((a, b) => (a.creationIndex ?? 0) - (b.creationIndex ?? 0))
    .map((cookie) => toObservedCookie(cookie));
}

/**
 * A tough-cookie cookie in the plain shape of {@link ObservedCookie} (what sessions store and
 * Playwright's `addCookies` accepts). A cookie without `Domain` belongs to the host it came from
 * (`from`, the URL of the response that set it).
 *
 * @example
 * toObservedCookie(Cookie.parse('a=1; Max-Age=60')!, new URL('http://a.test/'));
 */
export function toObservedCookie(cookie: Cookie, from?: URL): ObservedCookie {
  const observed: ObservedCookie = { name: cookie.key, value: cookie.value };
  const domain = cookie.domain ?? from?.hostname;
  if (domain) observed.domain = domain;
  const path = cookie.path ?? (from && defaultPath(from.pathname));
  if (path) observed.path = path;
  observed.httpOnly = cookie.httpOnly;
  observed.secure = cookie.secure;
  const expiry = cookie.expiryTime();
  if (expiry !== undefined && Number.isFinite(expiry)) observed.expires = Math.floor(expiry / 1000);
  // Max-Age=0 (or less) deletes the cookie: it expired at the epoch, not "never".
  else if (expiry === -Infinity) observed.expires = 0;
  const sameSite = sameSiteOf(cookie.sameSite);
  if (sameSite) observed.sameSite = sameSite;
  return observed;
}

function sameSiteOf(value: string | undefined): ObservedCookie['sameSite'] {
  switch (value?.toLowerCase()) {
    case 'strict':
      return 'Strict';
    case 'lax':
      return 'Lax';
    case 'none':
      return 'None';
    default:
      return undefined;
  }
}

/** RFC 6265 section 5.1.4: the directory of the request path. */
function defaultPath(pathname: string): string {
  const slash = pathname.lastIndexOf('/');
  return slash <= 0 ? '/' : pathname.slice(0, slash);
}
