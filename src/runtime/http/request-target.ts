/** Where undici sends a request: what `Dispatcher.request` takes instead of a URL. */
export interface RequestTarget {
  /** `http://host:port`, without user info. */
  origin: string;
  /** Path and query; the fragment is never sent. */
  path: string;
}

/** Sign-ins send to a few URLs, again and again; at most this many are kept. */
const MAX_TARGETS = 256;
const targets = new Map<string, RequestTarget>();

/**
 * The origin and path of an absolute http(s) URL, as undici's top-level `request()` computes them
 * (`url.origin`, `pathname` + `search`), parsed once per URL: parsing a URL for every request of
 * the same token endpoint is most of what a request allocates besides the request itself.
 *
 * @throws TypeError for a string that is not a URL (the caller checks the scheme first).
 * @example
 * requestTarget('http://127.0.0.1:4010/auth/token?x=1#top'); // { origin: 'http://127.0.0.1:4010', path: '/auth/token?x=1' }
 */
export function requestTarget(url: string): RequestTarget {
  let target = targets.get(url);
  if (!target) {
    const parsed = new URL(url);
    target = { origin: parsed.origin, path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname };
    if (targets.size >= MAX_TARGETS) targets.clear();
    targets.set(url, target);
  }
  return target;
}
