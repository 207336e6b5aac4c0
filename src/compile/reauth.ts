import type { AuthConfig } from '../config/index.js';
import type { PlanUser } from './plan.js';

/**
 * Marks the users a 401 must not sign in again: `reauth` on the user (a generic user, or a preset's
 * user) wins over the top-level `reauth`. `users` are changed in place.
 *
 * @example
 * applyReauth(plan.users, config); // users with reauth: false, or all of them under a top-level false
 */
export function applyReauth(users: PlanUser[], config: AuthConfig): void {
  for (const user of users) {
    const own = ownSetting(user, config);
    if ((own ?? config.reauth) === false) user.reauth = false;
  }
}

function ownSetting(user: PlanUser, config: AuthConfig): boolean | undefined {
  const [kind, index, inner, userIndex] = user.origin;
  if (typeof index !== 'number') return undefined;
  if (kind === 'users') return config.users[index]?.reauth;
  if (kind !== 'presets' || inner !== 'users' || typeof userIndex !== 'number') return undefined;
  const entry = (config.presets[index]?.users as unknown[] | undefined)?.[userIndex];
  return entry && typeof entry === 'object' && 'reauth' in entry ? (entry as { reauth?: boolean }).reauth : undefined;
}
