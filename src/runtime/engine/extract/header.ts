import type { HeaderPair, Observation } from '../../http/observation.js';
import { listNames, type Lookup } from './types.js';

/**
 * Header `key` (case-insensitive) in the observed exchange: the latest response that has it first,
 * then earlier responses, then the requests, latest first. Several values of one message are joined
 * with `, ` into one candidate, except `Set-Cookie`, whose values are candidates one by one (a
 * `regex` then picks the first that matches).
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-5.3
 * @example
 * headerLookup(observation, 'x-token').candidates; // ['abc']
 */
export function headerLookup(observation: Observation, key: string): Lookup {
  const name = key.toLowerCase();
  const messages: Array<{ headers: HeaderPair[] }> = [
    ...[...observation.responses].reverse(),
    ...[...observation.requests].reverse(),
  ];
  const candidates: string[] = [];
  for (const message of messages) {
    const values = message.headers.filter(([n]) => n.toLowerCase() === name).map(([, v]) => v);
    if (values.length === 0) continue;
    if (name === 'set-cookie') candidates.push(...values);
    else candidates.push(values.join(', '));
  }
  return {
    candidates,
    seen: () => [
      `response headers: ${listNames(observation.responses.flatMap((r) => r.headers.map(([n]) => n.toLowerCase())))}`,
      `request headers: ${listNames(observation.requests.flatMap((r) => r.headers.map(([n]) => n.toLowerCase())))}`,
    ],
  };
}
