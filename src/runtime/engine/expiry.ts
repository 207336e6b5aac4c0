import type { Session } from '../session/session.js';
import { decodeJwtPayload } from './jwt.js';

/** Names of extracted variables that hold a lifetime in seconds (OAuth's and Cognito's). */
const LIFETIME_NAMES = new Set(['expires_in', 'ExpiresIn']);

/** What {@link computeExpiry} needs to know about a finished sign-in. */
export interface ExpiryInput {
  /** Unix time in ms when the session was made. */
  createdAt: number;
  /** The user's `refresh.sessionSeconds`. */
  sessionSeconds?: number;
  /** The config's `lifetime`: how long a session lasts when nothing of the sign-in says. */
  lifetimeSeconds?: number;
  /** The variables of the run. */
  variables: Record<string, string>;
  /** Names of the variables this run extracted: only these are read (a refreshed session's old token must not count). */
  extractedNames: string[];
}

/**
 * When a session expires, in Unix ms, or `null` when nothing says (it lasts the run):
 * 1. `sessionSeconds` after `createdAt`, when set;
 * 2. else the earliest of: `createdAt` + an extracted `expires_in` / `ExpiresIn` (seconds), and the
 *    `exp` claim (absolute, seconds) of any extracted value that is a JWT (`Bearer ` stripped);
 * 3. else `lifetimeSeconds` after `createdAt`, when set (the config's `lifetime`).
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1
 * @see https://www.rfc-editor.org/rfc/rfc7519#section-4.1.4
 * @example
 * computeExpiry({ createdAt: 0, variables: { expires_in: '3600' }, extractedNames: ['expires_in'] }); // 3_600_000
 */
export function computeExpiry(input: ExpiryInput): number | null {
  if (input.sessionSeconds !== undefined) return input.createdAt + input.sessionSeconds * 1000;
  let earliest: number | null = null;
  const names = input.extractedNames;
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    const value = input.variables[name];
    if (value === undefined || names.indexOf(name) !== i) continue;
    let at: number | undefined;
    if (LIFETIME_NAMES.has(name)) {
      const seconds = Number(value.trim());
      if (value.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) at = input.createdAt + seconds * 1000;
    } else {
      const exp = decodeJwtPayload(value)?.exp;
      if (typeof exp === 'number' && Number.isFinite(exp)) at = exp * 1000;
    }
    if (at !== undefined && (earliest === null || at < earliest)) earliest = at;
  }
  if (earliest === null && input.lifetimeSeconds !== undefined) return input.createdAt + input.lifetimeSeconds * 1000;
  return earliest;
}

/** Refresh when less than this remains (unless a quarter of the lifetime is shorter). */
const REFRESH_MARGIN_MS = 30_000;

/**
 * Whether a session must be refreshed before it is used at `now` (Unix ms): when less than 30 s of
 * it remain, or, for a session whose whole lifetime is shorter than 2 min, less than a quarter of
 * its lifetime (a 2 s session is used for 1.5 s). A session that never expires (`expiresAt: null`)
 * never needs it; an expired one, or one that expired when it was made (a stale JWT), always does.
 *
 * @example
 * needsRefresh({ ...session, createdAt: 0, expiresAt: 2000 }, 1500); // false
 * needsRefresh({ ...session, createdAt: 0, expiresAt: 2000 }, 1501); // true
 */
export function needsRefresh(session: Pick<Session, 'createdAt' | 'expiresAt'>, now: number): boolean {
  if (session.expiresAt === null) return false;
  const remaining = session.expiresAt - now;
  const lifetime = session.expiresAt - session.createdAt;
  if (remaining <= 0 || lifetime <= 0) return true;
  const margin = Math.min(REFRESH_MARGIN_MS, lifetime / 4);
  return remaining < margin;
}
