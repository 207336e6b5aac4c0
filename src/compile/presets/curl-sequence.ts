import type { CurlSequencePreset } from '../../config/index.js';
import type { PlanProcedure } from '../plan.js';
import { planExtractions, planInjections, presetCredentials, variablesRecord } from '../normalize.js';
import { compileCurlCommands } from './curl-operations.js';
import { presetProcedureName, presetUser, type PresetOutput, type PresetSite } from './preset-output.js';

/**
 * `curl_sequence`: one procedure shared by the preset's users, one `http` operation per request in
 * order, parsed from its command (see `compileCurlCommands`), each with its own extractions; each
 * request is templated at run time with the user's variables and everything extracted before it.
 * The preset's injections close the procedure. An operation's origin is its command
 * (`requests[i].curl`), so that issues and errors point at the command itself.
 *
 * @example
 * compileCurlSequencePreset({ type: 'curl_sequence', requests: [
 *   { curl: 'curl https://x/csrf', extractions: [{ name: 'csrf', location: 'cookie', key: 'csrf' }] },
 *   { curl: "curl -d 'user={{user}}&csrf={{csrf}}' https://x/login" }],
 *   users: [{ username: 'alice', variables: { user: 'alice' } }] }, site);
 * // procedures: [{ name: 'preset[0]:curl_sequence', operations: [{ tech: 'http', ... }, { tech: 'http', ... }] }]
 */
export function compileCurlSequencePreset(preset: CurlSequencePreset, site: PresetSite): PresetOutput {
  const compiled = compileCurlCommands(preset.requests.map((request, index) => ({
    command: request.curl,
    origin: [...site.origin, 'requests', index, 'curl'],
    extractions: planExtractions(request.extractions, [...site.origin, 'requests', index, 'extractions']),
  })));
  const procedure: PlanProcedure = {
    name: presetProcedureName(site),
    origin: site.origin,
    fromPreset: site.type,
    operations: compiled.operations,
    injections: planInjections(preset.injections, [...site.origin, 'injections']),
  };
  const users = preset.users.map((user, index) =>
    presetUser(site, index, user.username, presetCredentials(user), {
      procedure: procedure.name,
      variables: variablesRecord(user.variables),
    }),
  );
  return { users, procedures: [procedure], secrets: compiled.secrets, issues: compiled.issues };
}
