import type { Observation } from '../../http/observation.js';
import { listNames, type Lookup } from './types.js';

/**
 * Cookie `key` (exact name, RFC 6265) among the cookies the step set (every hop of a redirect
 * chain, or the browser context's cookies), the latest first.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6265#section-5.2
 * @example
 * cookieLookup(observation, 'session').candidates; // ['s3cr3t']
 */
export function cookieLookup(observation: Observation, key: string): Lookup {
  const candidates = observation.cookies.filter((c) => c.name === key).map((c) => c.value).reverse();
  return {
    candidates,
    seen: () => [`cookies set: ${listNames(observation.cookies.map((c) => c.name))}`],
  };
}
