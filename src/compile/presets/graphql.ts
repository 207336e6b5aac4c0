import type { GraphqlPreset } from '../../config/index.js';
import type { PlanExtraction, PlanInjection, PlanProcedure } from '../plan.js';
import { planExtractions, planInjections, presetCredentials } from '../normalize.js';
import { isTemplateName, templateOf } from '../../core/template-names.js';
import { presetProcedureName, presetUser, type PresetOutput, type PresetSite } from './preset-output.js';

/** Name of the variable the default extraction fills (DESIGN.md: graphql defaults). */
export const GRAPHQL_DEFAULT_TOKEN_VARIABLE = 'token';

/**
 * `graphql`: one procedure per user (each user's variables are its own) with one request:
 * `POST url` with `Content-Type: application/json` and the body `{"query": query, "variables":
 * {...}}`. The body's variables are `{{name}}` templates of the user's variables, which hold the
 * values, so the procedure shows the shape and the secrets stay with the user. The `graphql`
 * dialect fails a 200 answer that carries `errors`.
 *
 * Without `extractions`, the token is the first string under `data` whose key ends with `token`
 * (variable `token`); without `injections`, it is sent as `Authorization: Bearer`. An explicit empty
 * list is kept (a cookie-based login needs neither).
 *
 * @example
 * compileGraphqlPreset({ type: 'graphql', url: 'https://x/graphql', query: 'mutation($u: String!) {...}',
 *   users: [{ username: 'alice', variables: { u: 'alice', p: 'pw' } }] }, site);
 * // procedures: [{ name: 'preset[0]:graphql:alice', operations: [{ tech: 'http', dialect: 'graphql', request: {
 * //   method: 'POST', body: { query: '...', variables: { u: '{{u}}', p: '{{p}}' } }, ... } }] }]
 */
export function compileGraphqlPreset(preset: GraphqlPreset, site: PresetSite): PresetOutput {
  const extractions: PlanExtraction[] =
    preset.extractions === undefined
      ? [{ name: GRAPHQL_DEFAULT_TOKEN_VARIABLE, location: 'body', key: 'data', match: 'first-key-ending-token', origin: site.origin }]
      : planExtractions(preset.extractions, [...site.origin, 'extractions']);
  const injections: PlanInjection[] =
    preset.injections === undefined
      ? [defaultInjection(preset.extractions === undefined, site)]
      : planInjections(preset.injections, [...site.origin, 'injections']);

  const procedures: PlanProcedure[] = [];
  const secrets: string[] = [];
  const users = preset.users.map((user, index) => {
    const variables: Record<string, string> = {};
    for (const [name, value] of Object.entries(user.variables)) {
      if (isTemplateName(name)) {
        variables[name] = templateOf(name);
      } else {
        variables[name] = value;
        secrets.push(value);
      }
    }
    const procedure: PlanProcedure = {
      name: presetProcedureName(site, user.username),
      origin: site.origin,
      fromPreset: site.type,
      operations: [
        {
          tech: 'http',
          origin: site.origin,
          dialect: 'graphql',
          request: {
            url: preset.url,
            method: 'POST',
            headers: [
              { name: 'Content-Type', values: ['application/json'] },
              { name: 'Accept', values: ['application/json'] },
            ],
            cookies: [],
            query: [],
            body: { query: preset.query, variables },
          },
          extractions: extractions.map((e) => ({ ...e })),
        },
      ],
      injections: injections.map((i) => ({ ...i })),
    };
    procedures.push(procedure);
    return presetUser(site, index, user.username, presetCredentials(user), {
      procedure: procedure.name,
      variables: { ...user.variables },
    });
  });
  return { users, procedures, secrets };
}

function defaultInjection(defaultExtraction: boolean, site: PresetSite): PlanInjection {
  const injection: PlanInjection = { location: 'header', key: 'Authorization', prefix: 'Bearer', origin: site.origin };
  // With the preset's own extractions, the first successful one is the token (spec: TokenInjection).
  if (defaultExtraction) injection.variable = GRAPHQL_DEFAULT_TOKEN_VARIABLE;
  return injection;
}
