import type { Session } from '../../../src/runtime/session/session.js';

/** A minimal valid session for store tests. */
export function makeSession(user: string, token: string, expiresAt: number | null, createdAt = Date.now()): Session {
  return {
    user,
    headers: { Authorization: [`Bearer ${token}`] },
    cookies: [],
    query: {},
    body: { set: {} },
    origins: [],
    createdAt,
    expiresAt,
    variables: { token },
    origin: 'signed-in',
  };
}
