import type { CurlPreset } from '../../config/index.js';
import type { PlanProcedure } from '../plan.js';
import { planExtractions, planInjections, presetCredentials } from '../normalize.js';
import { compileCurlCommands } from './curl-operations.js';
import { presetProcedureName, presetUser, type PresetOutput, type PresetSite } from './preset-output.js';

/**
 * `curl`: one procedure per user with a single `http` operation parsed from the user's command (by
 * the sandboxed simulator, never a shell; see `compileCurlCommands`), then the preset's
 * extractions and injections. Every command is read, so every refused one is an issue.
 *
 * @example
 * compileCurlPreset({ type: 'curl', users: [{ username: 'alice', curl: "curl -d 'u=alice' https://x/login" }],
 *   extractions: [{ name: 't', location: 'header', key: 'X-Token' }], injections: [...] }, site);
 * // procedures: [{ name: 'preset[0]:curl:alice', operations: [{ tech: 'http', request: { method: 'POST', ... },
 * //   source: { kind: 'curl', command: "curl -d 'u=alice' https://x/login" } }] }]
 */
export function compileCurlPreset(preset: CurlPreset, site: PresetSite): PresetOutput {
  const output: Required<PresetOutput> = { users: [], procedures: [], secrets: [], issues: [] };
  preset.users.forEach((user, index) => {
    const compiled = compileCurlCommands([{
      command: user.curl,
      origin: [...site.origin, 'users', index, 'curl'],
      extractions: planExtractions(preset.extractions, [...site.origin, 'extractions']),
    }]);
    const procedure: PlanProcedure = {
      name: presetProcedureName(site, user.username),
      origin: site.origin,
      fromPreset: site.type,
      operations: compiled.operations,
      injections: planInjections(preset.injections, [...site.origin, 'injections']),
    };
    output.procedures.push(procedure);
    output.secrets.push(...compiled.secrets);
    output.issues.push(...compiled.issues);
    output.users.push(presetUser(site, index, user.username, presetCredentials(user), { procedure: procedure.name }));
  });
  return output;
}
