import type { HeaderPair } from '../runtime/index.js';
import { combineHeaders } from '../runtime/index.js';

/**
 * Headers as Playwright takes them (`APIRequestContext` options, `route.fallback`): a record, so one
 * field per name. The only place a request's headers change shape on their way out; several values
 * of one name are joined by the rule every sender follows (`combineHeaders`).
 *
 * @example
 * playwrightHeaders([['Accept', 'a'], ['accept', 'b']]); // { Accept: 'a, b' }
 */
export function playwrightHeaders(headers: readonly HeaderPair[]): Record<string, string> {
  return Object.fromEntries(combineHeaders(headers));
}

/**
 * Playwright's header record as pairs, for `applySession`; absent values are left out.
 *
 * @example
 * headerPairs({ 'content-type': 'application/json' }); // [['content-type', 'application/json']]
 */
export function headerPairs(headers: Record<string, string | undefined> | undefined): HeaderPair[] {
  return Object.entries(headers ?? {}).flatMap(([name, value]): HeaderPair[] => (value === undefined ? [] : [[name, String(value)]]));
}

/**
 * The names (lower-cased) of the header fields `after` has and `before` has not: what a session
 * added to a request, which a redirect may carry along. `Cookie` aside: cookies travel in the jar,
 * bound to their hosts.
 *
 * @example
 * addedHeaders([['accept', '*\/*']], [['accept', '*\/*'], ['x-api-key', 't']]); // ['x-api-key']
 */
export function addedHeaders(before: readonly HeaderPair[], after: readonly HeaderPair[]): string[] {
  const had = new Set(before.map(([name, value]) => `${name.toLowerCase()}\n${value}`));
  return after.flatMap(([name, value]) => {
    const lower = name.toLowerCase();
    return lower === 'cookie' || had.has(`${lower}\n${value}`) ? [] : [lower];
  });
}
