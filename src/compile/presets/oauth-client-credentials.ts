import type { OAuthClientCredentialsPreset } from '../../config/index.js';
import type { PlanProcedure } from '../plan.js';
import { presetCredentials, scopesString } from '../normalize.js';
import { oauthProcedures } from './oauth-token.js';
import { presetUser, type PresetOutput, type PresetSite } from './preset-output.js';

/**
 * `oauth_client_credentials`: each user is an OAuth client (its `username` is only a name). Per
 * user, a sign-in procedure with the client credentials grant (`grant_type=client_credentials`,
 * `scope` when the user gives scopes, `audience` when the user or preset gives one) and a refresh procedure (see {@link oauthProcedures}).
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.4
 * @example
 * compileOAuthClientCredentialsPreset({ type: 'oauth_client_credentials', url: 'https://x/oauth/token',
 *   users: [{ username: 'svc', client_id: 'svc', client_secret: 's', scopes: ['read'] }] }, site);
 * // procedures: ['preset[0]:oauth_client_credentials:svc', 'preset[0]:oauth_client_credentials-refresh:svc']
 */
export function compileOAuthClientCredentialsPreset(preset: OAuthClientCredentialsPreset, site: PresetSite): PresetOutput {
  const procedures: PlanProcedure[] = [];
  const secrets: string[] = [];
  const users = preset.users.map((user, index) => {
    const scope = scopesString(user.scopes);
    const compiled = oauthProcedures({
      site,
      user: user.username,
      url: preset.url,
      grant: { grant_type: 'client_credentials', ...audienceOf(user.audience ?? preset.audience) },
      ...(scope === undefined ? {} : { scope }),
      clientId: user.client_id,
      clientSecret: user.client_secret,
      clientAuth: preset.client_auth ?? 'post',
    });
    procedures.push(compiled.signIn, compiled.refresh);
    secrets.push(...compiled.secrets);
    return presetUser(site, index, user.username, presetCredentials(user), {
      procedure: compiled.signIn.name,
      refresh: compiled.userRefresh,
    });
  });
  return { users, procedures, secrets };
}

/** RFC 8707 names the parameter `resource`; Auth0 and Entra ID's v1 endpoints read `audience`, as the vendor's format writes it. */
function audienceOf(audience: string | undefined): Record<string, string> {
  return audience === undefined ? {} : { audience };
}
