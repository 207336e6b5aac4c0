import type { HeaderPair } from './observation.js';
import type { ResolvedRequest } from './types.js';

/** Statuses that redirect, when the response carries a `Location`. */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Headers that describe a request body: they go when the body goes (Fetch "request-body-header name"). */
const BODY_HEADERS = new Set(['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']);

/** Headers that carry credentials of one origin: they stay behind on a cross-origin redirect. */
const ORIGIN_CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

/**
 * The request a redirect asks for, or `undefined` when the response is not a redirect that can be
 * followed (not a 3xx redirect status, no `Location`, or a `Location` that is not http(s), such as
 * an app's custom scheme: then the 3xx is the final answer and extractions can read its `Location`).
 *
 * Method and body follow what browsers do: 303 becomes GET (HEAD stays HEAD); 301 and 302 turn a
 * POST into a GET; 307 and 308 keep both. A body that is dropped takes its `Content-*` headers
 * with it. `Authorization`, `Cookie` and `Proxy-Authorization` headers are dropped when the
 * redirect leaves the origin (the cookie jar still sends the new origin's own cookies).
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-15.4
 * @see https://fetch.spec.whatwg.org/#http-redirect-fetch
 * @example
 * redirectedRequest({ method: 'POST', url: 'http://a.test/login', headers: [], body: 'x=1' }, 302, '/done?code=1');
 * // { method: 'GET', url: 'http://a.test/done?code=1', headers: [] }
 */
export function redirectedRequest(
  request: ResolvedRequest,
  status: number,
  location: string | undefined,
): ResolvedRequest | undefined {
  if (!REDIRECT_STATUSES.has(status) || location === undefined) return undefined;
  let target: URL;
  try {
    target = new URL(location, request.url);
  } catch {
    return undefined;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return undefined;

  const toGet =
    (status === 303 && request.method !== 'HEAD') ||
    ((status === 301 || status === 302) && request.method === 'POST');
  const crossOrigin = new URL(request.url).origin !== target.origin;
  const headers: HeaderPair[] = request.headers.filter(([name]) => {
    const lower = name.toLowerCase();
    if (toGet && BODY_HEADERS.has(lower)) return false;
    if (crossOrigin && ORIGIN_CREDENTIAL_HEADERS.has(lower)) return false;
    return true;
  });
  const next: ResolvedRequest = { method: toGet ? 'GET' : request.method, url: target.href, headers };
  if (!toGet && request.body !== undefined) next.body = request.body;
  return next;
}

/**
 * Why a redirect must not be followed, or undefined when it may: a target that is not http(s)
 * (`file:`, `javascript:`, a custom scheme), or a link-local address (169.254.0.0/16, fe80::/10:
 * cloud metadata services live there) that the config itself did not name (`configured`, the
 * request's first URL). No request goes anywhere the config did not name.
 *
 * @example
 * refusedRedirect(302, 'http://169.254.169.254/latest/meta-data/', 'https://app.test/login');
 * // 'a redirect to a link-local address (169.254.169.254), where cloud metadata services answer'
 */
export function refusedRedirect(status: number, location: string | undefined, requestUrl: string, configured: string): string | undefined {
  if (!REDIRECT_STATUSES.has(status) || location === undefined) return undefined;
  let target: URL;
  try {
    target = new URL(location, requestUrl);
  } catch {
    return undefined;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return `a redirect to a ${target.protocol} URL (only http and https are followed)`;
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (isLinkLocal(host) && new URL(configured).hostname.replace(/^\[|\]$/g, '') !== host) {
    return `a redirect to a link-local address (${host}), where cloud metadata services answer`;
  }
  return undefined;
}

/**
 * Why a redirect must not be followed because it would carry the request's body to another origin,
 * or undefined when it may. A sign-in body holds credentials (a client secret, a password, an
 * authorization code, a PKCE verifier); the headers that carry credentials stay behind on a
 * cross-origin redirect (see {@link redirectedRequest}), but a 307 or 308 (and a 301 or 302 of a
 * method other than POST) keeps the body, so it would reach a server the config never named. No
 * standard says to turn such a redirect into a body-less GET, so it is refused instead.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-15.4.8
 * @example
 * const request = { method: 'POST', url: 'https://app.test/token', headers: [], body: 'client_secret=s' };
 * refusedBodyRedirect(request, { ...request, url: 'https://evil.test/token' });
 * // 'a redirect that would send the request body to another origin (https://evil.test)'
 */
export function refusedBodyRedirect(request: ResolvedRequest, next: ResolvedRequest): string | undefined {
  if (next.body === undefined) return undefined;
  const target = new URL(next.url).origin;
  if (new URL(request.url).origin === target) return undefined;
  return `a redirect that would send the request body to another origin (${target})`;
}

function isLinkLocal(host: string): boolean {
  if (/^169\.254\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  return /^fe[89ab][0-9a-f]?:/i.test(host) || /^::ffff:169\.254\./i.test(host) || /^::ffff:a9fe:/i.test(host);
}
