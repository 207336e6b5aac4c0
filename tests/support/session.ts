import type { Session } from '../../src/runtime/session/session.js';

/**
 * A session of alice with nothing in it, made at time 0 and never expiring; `extra` overrides.
 *
 * @example
 * const s = makeTestSession({ headers: { Authorization: ['Bearer t'] } });
 */
export function makeTestSession(extra: Partial<Session> = {}): Session {
  return {
    user: 'alice',
    headers: {},
    cookies: [],
    query: {},
    body: { set: {} },
    origins: [],
    createdAt: 0,
    expiresAt: null,
    variables: {},
    origin: 'signed-in',
    ...extra,
  };
}
