import type { OAuthUserpassPreset } from '../../config/index.js';
import type { PlanProcedure } from '../plan.js';
import { presetCredentials, scopesString } from '../normalize.js';
import { templateOf } from '../../core/template-names.js';
import { oauthProcedures } from './oauth-token.js';
import { presetUser, type PresetOutput, type PresetSite } from './preset-output.js';

/**
 * `oauth_userpass` (alias `oauth_ropc`): the resource owner password credentials grant. Per user, a
 * sign-in procedure (`grant_type=password&username={{username}}&password={{password}}`, `scope`
 * when the user gives scopes, the preset's client authentication) and a refresh procedure (see
 * {@link oauthProcedures}). The user's username and password are credentials with `basic: 'none'`:
 * they fill the templates and are never sent as HTTP Basic.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.3
 * @example
 * compileOAuthUserpassPreset({ type: 'oauth_userpass', url: 'https://x/oauth/token', client_id: 'app',
 *   client_secret: 's', users: [{ username: 'alice', password: 'pw' }] }, site);
 * // procedures: ['preset[0]:oauth_userpass:alice', 'preset[0]:oauth_userpass-refresh:alice']
 */
export function compileOAuthUserpassPreset(preset: OAuthUserpassPreset, site: PresetSite): PresetOutput {
  const procedures: PlanProcedure[] = [];
  const secrets: string[] = [];
  const users = preset.users.map((user, index) => {
    const scope = scopesString(user.scopes);
    const compiled = oauthProcedures({
      site,
      user: user.username,
      url: preset.url,
      grant: { grant_type: 'password', username: templateOf('username'), password: templateOf('password') },
      ...(scope === undefined ? {} : { scope }),
      clientId: preset.client_id,
      clientSecret: preset.client_secret,
      clientAuth: preset.client_auth ?? 'post',
    });
    procedures.push(compiled.signIn, compiled.refresh);
    secrets.push(...compiled.secrets);
    return presetUser(
      site,
      index,
      user.username,
      presetCredentials(user, { username: user.username, password: user.password }),
      { procedure: compiled.signIn.name, refresh: compiled.userRefresh },
    );
  });
  return { users, procedures, secrets };
}
