import type { AuthConfig, ReauthSetting } from '../config/index.js';
import type { PlanReauth, PlanUser } from './plan.js';

/**
 * Gives each user what a "signed out" answer looks like for it: `reauth` on the user (a generic
 * user, or a preset's user), else on its preset, else at the top level; the nearest one wins
 * whole. `false` marks a user no answer signs in again; the defaults (`true`, or nothing said)
 * leave `reauth` unset (HTTP 401 only). `users` are changed in place.
 *
 * @example
 * applyReauth(plan.users, config); // bob.reauth: { onStatus: [401, 403], onRedirect: ['/login'] }
 */
export function applyReauth(users: PlanUser[], config: AuthConfig): void {
  for (const user of users) {
    const setting = ownSetting(user, config) ?? presetSetting(user, config) ?? config.reauth;
    const resolved = planReauth(setting);
    if (resolved === undefined) delete user.reauth;
    else user.reauth = resolved;
  }
}

/** The HTTP statuses that mean "signed out" when a config says nothing else. */
export const DEFAULT_REAUTH_STATUSES: readonly number[] = [401];

function planReauth(setting: ReauthSetting | undefined): PlanReauth | false | undefined {
  if (setting === false) return false;
  if (setting === undefined || setting === true) return undefined;
  const onStatus = [...new Set(setting.on_status ?? DEFAULT_REAUTH_STATUSES)];
  const redirect = setting.on_redirect;
  const onRedirect = redirect === undefined ? [] : Array.isArray(redirect) ? [...redirect] : [redirect];
  // The same as saying nothing: kept unset, so the user's cache key does not change.
  if (onRedirect.length === 0 && onStatus.length === 1 && onStatus[0] === 401) return undefined;
  return { onStatus, onRedirect };
}

function ownSetting(user: PlanUser, config: AuthConfig): ReauthSetting | undefined {
  const [kind, index, inner, userIndex] = user.origin;
  if (typeof index !== 'number') return undefined;
  if (kind === 'users') return config.users[index]?.reauth;
  if (kind !== 'presets' || inner !== 'users' || typeof userIndex !== 'number') return undefined;
  const entry = (config.presets[index]?.users as unknown[] | undefined)?.[userIndex];
  return entry && typeof entry === 'object' && 'reauth' in entry ? (entry as { reauth?: ReauthSetting }).reauth : undefined;
}

function presetSetting(user: PlanUser, config: AuthConfig): ReauthSetting | undefined {
  const [kind, index] = user.origin;
  if (kind !== 'presets' || typeof index !== 'number') return undefined;
  const preset = config.presets[index] as { reauth?: ReauthSetting } | undefined;
  return preset?.reauth;
}
