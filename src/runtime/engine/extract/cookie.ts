import type { Observation, ObservedCookie } from '../../http/observation.js';
import { listNames, type Lookup } from './types.js';

/**
 * Cookie `key` (exact name, RFC 6265) among the cookies the step set (every hop of a redirect
 * chain, or the browser context's cookies), the latest first. A cookie the server deleted
 * (`Max-Age=0`, an expiry in the past: phpMyAdmin's `pmaAuth-1=deleted` for a wrong password) is
 * never a value, and neither is any earlier value of it (same name, domain and path): the server
 * took it back.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6265#section-5.3
 * @example
 * cookieLookup(observation, 'session').candidates; // ['s3cr3t']
 */
export function cookieLookup(observation: Observation, key: string, now = Date.now()): Lookup {
  const candidates: string[] = [];
  const deleted = new Set<string>();
  for (let i = observation.cookies.length - 1; i >= 0; i--) {
    const cookie = observation.cookies[i] as ObservedCookie;
    if (cookie.name !== key) continue;
    const where = `${cookie.domain ?? ''}\n${cookie.path ?? ''}`;
    if (isDeleted(cookie, now)) deleted.add(where);
    else if (!deleted.has(where)) candidates.push(cookie.value);
  }
  const deletedNames = observation.cookies.filter((c) => isDeleted(c, now)).map((c) => c.name);
  return {
    candidates,
    seen: () => [
      `cookies set: ${listNames(observation.cookies.filter((c) => !isDeleted(c, now)).map((c) => c.name))}`,
      ...(deletedNames.length ? [`cookies deleted by the server: ${listNames(deletedNames)}`] : []),
    ],
    ...(candidates.length === 0 &&
      deleted.size > 0 && {
        reason: () => 'the server deleted it (Max-Age=0 or an expiry in the past), as servers do when they refuse a sign-in',
      }),
  };
}

/** Whether the server deleted the cookie: it expired before it was even kept. */
function isDeleted(cookie: ObservedCookie, now: number): boolean {
  return cookie.expires !== undefined && cookie.expires * 1000 <= now;
}
