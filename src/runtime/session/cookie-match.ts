import type { ObservedCookie } from '../http/observation.js';

/**
 * Whether a session cookie goes with a request to `url` (RFC 6265 5.4): a cookie without a domain
 * (an injected one) goes everywhere; one with a domain goes to that host and its subdomains, under
 * its path, and, when `secure`, only over HTTPS (or to a loopback host, as browsers allow). A URL
 * that does not parse gets only the cookies without a domain.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6265#section-5.4
 * @example
 * cookieMatchesUrl({ name: 'sid', value: 'x', domain: '.example.test', path: '/' }, 'https://api.example.test/a'); // true
 */
export function cookieMatchesUrl(cookie: ObservedCookie, url: string): boolean {
  if (isDomainless(cookie)) return true;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const host = parsed.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const domain = (cookie.domain as string).toLowerCase().replace(/^\./, '');
  if (host !== domain && !host.endsWith(`.${domain}`)) return false;
  if (cookie.path !== undefined && !pathMatches(parsed.pathname, cookie.path)) return false;
  if (cookie.secure && parsed.protocol !== 'https:' && !isLoopback(host)) return false;
  return true;
}

/**
 * Whether a session cookie has no domain: a cookie injection or a static credentials cookie. Such a
 * cookie goes to every host the session is applied to; a sender with its own cookie jar (a browser
 * context, an `APIRequestContext`) can hold it only once it is bound to a host.
 *
 * @example
 * isDomainless({ name: 'token', value: 'abc' }); // true
 */
export function isDomainless(cookie: ObservedCookie): boolean {
  return cookie.domain === undefined || cookie.domain === '';
}

/**
 * The session cookies a request to `url` carries in its `Cookie` header: those that match the URL
 * ({@link cookieMatchesUrl}), the first of each name.
 *
 * @example
 * cookiesForUrl(session.cookies, 'https://api.test/x'); // the api.test cookies and the domain-less ones
 */
export function cookiesForUrl(cookies: readonly ObservedCookie[], url: string): ObservedCookie[] {
  const out: ObservedCookie[] = [];
  for (const cookie of cookies) {
    if (cookieMatchesUrl(cookie, url) && !out.some((c) => c.name === cookie.name)) out.push(cookie);
  }
  return out;
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath || cookiePath === '' || cookiePath === '/') return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host);
}
