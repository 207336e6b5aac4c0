import type { HttpPreset } from '../../config/index.js';
import type { PlanCredentials, PlanProcedure } from '../plan.js';
import { mapToList, planExtractions, planInjections, presetCredentials, presetRequest } from '../normalize.js';
import { presetProcedureName, presetUser, type PresetOutput, type PresetSite } from './preset-output.js';

/**
 * `http`: one procedure shared by the preset's users, whose single request is the preset's
 * `request`. Its strings may use `{{username}}` and `{{password}}`, filled at run time from each
 * user's credentials. Each user's headers, cookies, query parameters and body are credentials,
 * merged into that request and every later one by the spec's merge rules; username and password,
 * when both are given, are also sent as HTTP Basic (DESIGN.md "Requests").
 *
 * @example
 * compileHttpPreset({ type: 'http', request: { url: 'https://x/login', method: 'POST' },
 *   extractions: [{ name: 'token', location: 'body', key: 'token' }],
 *   injections: [{ location: 'header', key: 'Authorization', prefix: 'Bearer', variable: 'token' }],
 *   users: [{ username: 'alice', password: 'pw' }] }, site);
 * // procedures: [{ name: 'preset[0]:http', operations: [{ tech: 'http', request: {...}, ... }], ... }]
 */
export function compileHttpPreset(preset: HttpPreset, site: PresetSite): PresetOutput {
  const procedure: PlanProcedure = {
    name: presetProcedureName(site),
    origin: site.origin,
    fromPreset: site.type,
    operations: [
      {
        tech: 'http',
        origin: [...site.origin, 'request'],
        request: presetRequest(preset.request),
        extractions: planExtractions(preset.extractions, [...site.origin, 'extractions']),
      },
    ],
    injections: planInjections(preset.injections, [...site.origin, 'injections']),
  };
  const users = preset.users.map((user, index) => {
    const extra: Partial<PlanCredentials> = {
      username: user.username,
      query: mapToList(user.queryParameters ?? user.query_parameters),
      basic: user.password !== undefined ? 'sign-in' : 'none',
    };
    if (user.password !== undefined) extra.password = user.password;
    if (user.body !== undefined) extra.body = user.body;
    return presetUser(site, index, user.username, presetCredentials(user, extra), { procedure: procedure.name });
  });
  return { users, procedures: [procedure], secrets: [] };
}
