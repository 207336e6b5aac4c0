import type { BasicPreset } from '../../config/index.js';
import { presetCredentials } from '../normalize.js';
import { presetUser, type PresetOutput, type PresetSite } from './preset-output.js';

/**
 * `basic`: each user's username and password are sent as HTTP Basic on every request; nothing runs
 * to sign in.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7617
 * @example
 * compileBasicPreset({ type: 'basic', users: [{ username: 'alice', password: 'pw' }] }, site);
 * // { users: [{ name: 'alice', credentials: { username: 'alice', password: 'pw', basic: 'requests', ... } }], procedures: [] }
 */
export function compileBasicPreset(preset: BasicPreset, site: PresetSite): PresetOutput {
  return {
    users: preset.users.map((user, index) =>
      presetUser(site, index, user.username, presetCredentials(user, { username: user.username, password: user.password, basic: 'requests' })),
    ),
    procedures: [],
    secrets: [],
  };
}
