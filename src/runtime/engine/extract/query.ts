import type { Observation } from '../../http/observation.js';
import { listNames, type Lookup } from './types.js';

/**
 * Query parameter `key` of the URLs the step went through, in this order: the final URL (the last
 * URL navigated or requested, the last response's URL), then every `Location` header of the chain
 * (latest first, resolved against the response's URL), then the other URLs seen and the request
 * URLs (latest first). In each URL the query string is read first, then the `#fragment` as
 * `a=b&c=d` (implicit-flow redirects put tokens there). Values are URL-decoded once. An empty
 * `key` gives the whole URLs, in the same order, for the extraction's `regex` to narrow.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.2.2
 * @example
 * queryLookup(observation, 'code').candidates; // ['SplxlOBeZQQYbYS6WxSbIA']
 */
export function queryLookup(observation: Observation, key: string): Lookup {
  const urls = orderedUrls(observation);
  // An empty key (configs written for the Python original) means the whole URL, for `regex` to narrow.
  if (key === '') return { candidates: urls, seen: () => [`${urls.length} URL(s)`] };
  const candidates: string[] = [];
  const names: string[] = [];
  for (const url of urls) {
    for (const params of paramsOf(url)) {
      names.push(...params.keys());
      const value = params.get(key);
      if (value !== null) candidates.push(value);
    }
  }
  return {
    candidates,
    seen: () => [`query and fragment parameters of ${urls.length} URL(s): ${listNames(names)}`],
  };
}

function orderedUrls(observation: Observation): string[] {
  const responses = [...observation.responses].reverse();
  const urls = [...observation.urls].reverse();
  const locations = responses.flatMap((r) =>
    r.headers.filter(([n]) => n.toLowerCase() === 'location').map(([, v]) => resolve(v, r.url)),
  );
  const ordered = [
    urls[0],
    responses[0]?.url,
    ...locations,
    ...urls.slice(1),
    ...responses.slice(1).map((r) => r.url),
    ...[...observation.requests].reverse().map((r) => r.url),
  ];
  return [...new Set(ordered.filter((u): u is string => u !== undefined && u !== ''))];
}

function resolve(location: string, base: string): string {
  try {
    return new URL(location, base).href;
  } catch {
    return location;
  }
}

function paramsOf(url: string): URLSearchParams[] {
  const hashAt = url.indexOf('#');
  const beforeHash = hashAt === -1 ? url : url.slice(0, hashAt);
  const queryAt = beforeHash.indexOf('?');
  const out: URLSearchParams[] = [];
  if (queryAt !== -1) out.push(new URLSearchParams(beforeHash.slice(queryAt + 1)));
  if (hashAt !== -1) {
    // A hash-routed app puts a query inside the fragment (`#/callback?code=...`).
    const fragment = url.slice(hashAt + 1);
    const innerQuery = fragment.indexOf('?');
    out.push(new URLSearchParams(innerQuery === -1 ? fragment : fragment.slice(innerQuery + 1)));
  }
  return out;
}
