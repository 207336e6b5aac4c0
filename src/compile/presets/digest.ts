import type { DigestPreset } from '../../config/index.js';
import type { PlanProcedure } from '../plan.js';
import { presetCredentials, presetRequest } from '../normalize.js';
import { presetProcedureName, presetUser, type PresetOutput, type PresetSite } from './preset-output.js';

/**
 * `digest`: one procedure shared by the preset's users with a single `digest` operation: the first
 * request draws the challenge, the second (default: same URL and method) answers it with the user's
 * username and password. Those are credentials with `basic: 'none'`: they answer challenges and are
 * never sent as HTTP Basic.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7616
 * @example
 * compileDigestPreset({ type: 'digest', first_request: { url: 'https://x/digest/', method: 'GET' },
 *   users: [{ username: 'alice', password: 'pw' }] }, site);
 * // procedures: [{ name: 'preset[0]:digest', operations: [{ tech: 'digest', first: {...}, second: {} }] }]
 */
export function compileDigestPreset(preset: DigestPreset, site: PresetSite): PresetOutput {
  const second: { url?: string; method?: NonNullable<DigestPreset['second_request']>['method'] } = {};
  if (preset.second_request?.url !== undefined) second.url = preset.second_request.url;
  if (preset.second_request?.method !== undefined) second.method = preset.second_request.method;
  const procedure: PlanProcedure = {
    name: presetProcedureName(site),
    origin: site.origin,
    fromPreset: site.type,
    operations: [
      { tech: 'digest', origin: [...site.origin, 'first_request'], first: presetRequest(preset.first_request), second, extractions: [] },
    ],
    injections: [],
  };
  const users = preset.users.map((user, index) =>
    presetUser(site, index, user.username, presetCredentials(user, { username: user.username, password: user.password }), {
      procedure: procedure.name,
    }),
  );
  return { users, procedures: [procedure], secrets: [] };
}
