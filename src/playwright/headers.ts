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
