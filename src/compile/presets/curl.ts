import type { CurlPreset } from '../../config/schema/index.js';
import type { PlanProcedure } from '../plan.js';
import { planExtractions, planInjections, presetCredentials } from '../normalize.js';
import { presetProcedureName, presetUser, type PresetOutput, type PresetSite } from './preset-output.js';

/**
 * `curl`: one procedure per user with a single `curl` operation holding the user's command (run by
 * the sandboxed simulator, never a shell), then the preset's extractions and injections.
 *
 * @example
 * compileCurlPreset({ type: 'curl', users: [{ username: 'alice', curl: "curl -d 'u=alice' https://x/login" }],
 *   extractions: [{ name: 't', location: 'header', key: 'X-Token' }], injections: [...] }, site);
 * // procedures: [{ name: 'preset[0]:curl:alice', operations: [{ tech: 'curl', command: "curl -d 'u=alice' ..." }] }]
 */
export function compileCurlPreset(preset: CurlPreset, site: PresetSite): PresetOutput {
  const procedures: PlanProcedure[] = [];
  const users = preset.users.map((user, index) => {
    const procedure: PlanProcedure = {
      name: presetProcedureName(site, user.username),
      origin: site.origin,
      fromPreset: site.type,
      operations: [
        {
          tech: 'curl',
          origin: [...site.origin, 'users', index, 'curl'],
          command: user.curl,
          extractions: planExtractions(preset.extractions, [...site.origin, 'extractions']),
        },
      ],
      injections: planInjections(preset.injections, [...site.origin, 'injections']),
    };
    procedures.push(procedure);
    return presetUser(site, index, user.username, presetCredentials(user), { procedure: procedure.name });
  });
  return { users, procedures, secrets: [] };
}
