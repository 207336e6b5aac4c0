import type { WebdriverPreset } from '../../config/index.js';
import type { PlanBrowserOperation, PlanProcedure } from '../plan.js';
import { planExtractions, planInjections, presetCredentials, variablesRecord } from '../normalize.js';
import { presetProcedureName, presetUser, type PresetOutput, type PresetSite } from './preset-output.js';

/**
 * `webdriver`: one procedure per user with a single browser operation that runs the user's recorded
 * Selenium IDE project (each step waiting up to the preset's `wait_for_seconds`), then the preset's
 * extractions and injections. The user's headers and cookies are credentials.
 *
 * @example
 * compileWebdriverPreset({ type: 'webdriver', wait_for_seconds: 5, users: [{ username: 'alice', project: { tests: [...] } }],
 *   extractions: [{ name: 'sid', location: 'cookie', key: 'sid' }] }, site);
 * // procedures: [{ name: 'preset[0]:webdriver:alice', operations: [{ tech: 'browser', project: {...}, waitForSeconds: 5 }] }]
 */
export function compileWebdriverPreset(preset: WebdriverPreset, site: PresetSite): PresetOutput {
  const procedures: PlanProcedure[] = [];
  const users = preset.users.map((user, index) => {
    const operation: PlanBrowserOperation = {
      tech: 'browser',
      // The browser runtime locates commands under `origin.project`: point at the user.
      origin: [...site.origin, 'users', index],
      project: user.project,
      extractions: planExtractions(preset.extractions, [...site.origin, 'extractions']),
    };
    if (preset.wait_for_seconds !== undefined) operation.waitForSeconds = preset.wait_for_seconds;
    const procedure: PlanProcedure = {
      name: presetProcedureName(site, user.username),
      origin: site.origin,
      fromPreset: site.type,
      operations: [operation],
      injections: planInjections(preset.injections, [...site.origin, 'injections']),
    };
    procedures.push(procedure);
    const credentials = presetCredentials(user, { username: user.username, ...(user.password === undefined ? {} : { password: user.password }) });
    return presetUser(site, index, user.username, credentials, {
      procedure: procedure.name,
      variables: variablesRecord(user.variables),
      ...(user.passkey === undefined ? {} : { passkey: user.passkey }),
    });
  });
  return { users, procedures, secrets: [] };
}
