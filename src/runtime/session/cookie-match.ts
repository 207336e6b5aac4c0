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
  if (cookie.domain === undefined || cookie.domain === '') return true;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const host = parsed.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const domain = cookie.domain.toLowerCase().replace(/^\./, '');
  if (host !== domain && !host.endsWith(`.${domain}`)) return false;
  if (cookie.path !== undefined && !pathMatches(parsed.pathname, cookie.path)) return false;
  if (cookie.secure && parsed.protocol !== 'https:' && !isLoopback(host)) return false;
  return true;
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath || cookiePath === '' || cookiePath === '/') return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host);
}
