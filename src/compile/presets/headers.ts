import type { HeadersPreset } from '../../config/index.js';
import { presetCredentials } from '../normalize.js';
import { presetUser, type PresetOutput, type PresetSite } from './preset-output.js';

/**
 * `headers`: static headers (and cookies) on every request; nothing runs to sign in.
 *
 * @example
 * compileHeadersPreset({ type: 'headers', users: [{ username: 'ci', headers: { 'X-Api-Key': 'k' } }] }, site);
 * // { users: [{ name: 'ci', credentials: { headers: [{ name: 'X-Api-Key', values: ['k'] }], ... } }], procedures: [] }
 */
export function compileHeadersPreset(preset: HeadersPreset, site: PresetSite): PresetOutput {
  return {
    users: preset.users.map((user, index) => presetUser(site, index, user.username, presetCredentials(user))),
    procedures: [],
    secrets: [],
  };
}
