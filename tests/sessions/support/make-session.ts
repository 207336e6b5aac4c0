import type { Session } from '../../../src/runtime/session/session.js';
import { makeTestSession } from '../../support/session.js';

/** A minimal valid session for store tests: `user` holding a Bearer `token`. */
export function makeSession(user: string, token: string, expiresAt: number | null, createdAt = Date.now()): Session {
  return makeTestSession({ user, headers: { Authorization: [`Bearer ${token}`] }, createdAt, expiresAt, variables: { token } });
}
