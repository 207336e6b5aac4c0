import type { AuthConfig, PresetUserRefresh } from '../config/index.js';
import type { PlanUser } from './plan.js';
import { resolveRefresh } from './refresh.js';

/**
 * Applies each preset user's own `refresh` (`sessionSeconds`, `keep`) to its compiled user: over the
 * preset's refresh rule when it has one (OAuth, Cognito), else as a rule that signs in again when
 * the session is `sessionSeconds` old. `users` are changed in place.
 *
 * @example
 * applyPresetUserRefresh(plan.users, config); // an http preset user with refresh: { sessionSeconds: 600 }
 */
export function applyPresetUserRefresh(users: PlanUser[], config: AuthConfig): void {
  for (const user of users) {
    if (user.source.kind !== 'preset' || user.origin[2] !== 'users') continue;
    const [, presetIndex, , userIndex] = user.origin;
    if (typeof presetIndex !== 'number' || typeof userIndex !== 'number') continue;
    const entry = (config.presets[presetIndex]?.users as unknown[] | undefined)?.[userIndex];
    const own = entry && typeof entry === 'object' && 'refresh' in entry ? (entry as { refresh?: PresetUserRefresh }).refresh : undefined;
    if (!own) continue;
    if (user.refresh) {
      if (own.sessionSeconds !== undefined) user.refresh.sessionSeconds = own.sessionSeconds;
      if (own.keep !== undefined) user.refresh.keep = own.keep;
      continue;
    }
    user.refresh = resolveRefresh(
      { keep: own.keep ?? false, ...(own.sessionSeconds === undefined ? {} : { sessionSeconds: own.sessionSeconds }) },
      user,
    );
  }
}
