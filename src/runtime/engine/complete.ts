import type { Plan } from '../../compile/index.js';
import { usablePlanUser } from './find-user.js';
import { withStaticCredentials } from '../session/apply.js';
import type { Session, SignInResult } from '../session/session.js';
import { passkeySeed } from '../session/passkey.js';

/**
 * The session requests are sent with, from what a sign-in produced (a cached {@link SignInResult}):
 * the user's static credentials from the plan folded in (`withStaticCredentials`). Light on
 * purpose: a worker completes cached sessions without loading the sign-in engine. The caller has
 * registered the plan's secrets (opening a config does).
 *
 * @throws MultiAuthError `USER_UNKNOWN` when the plan has no such user; `CONFIG_ENV_MISSING` when
 *   the user needs an environment variable that is not set.
 * @example
 * const session = completeSession(plan, readSessionFile(path, key)!);
 */
export function completeSession(plan: Plan, produced: SignInResult): Session {
  const user = usablePlanUser(plan, produced.user);
  const session = withStaticCredentials(produced, user.credentials);
  if (!user.passkey) return session;
  const seed = passkeySeed(user, produced.passkey);
  // A copy: without static credentials the session shares its object with `produced`.
  return seed === undefined ? session : { ...session, passkey: seed };
}
