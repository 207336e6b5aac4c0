import type { PoolUserpassPreset } from '../../config/index.js';
import type { PlanProcedure } from '../plan.js';
import { presetCredentials } from '../normalize.js';
import { templateOf } from '../../core/template-names.js';
import { cognitoSecretHash } from './cognito-secret-hash.js';
import { bearerInjection, tokenExtractions, tokenRefresh, TOKEN_VARIABLES } from './oauth-token.js';
import { presetProcedureName, presetUser, type PresetOutput, type PresetSite } from './preset-output.js';

/** The `X-Amz-Target` of Cognito's InitiateAuth action. */
const INITIATE_AUTH = 'AWSCognitoIdentityProviderService.InitiateAuth';

/**
 * `pool_userpass` (alias `cognito_userpass`): AWS Cognito `InitiateAuth`. Per user, a sign-in
 * procedure with `USER_PASSWORD_AUTH` (`USERNAME={{username}}`, `PASSWORD={{password}}`) and a refresh
 * procedure with `REFRESH_TOKEN_AUTH` (`REFRESH_TOKEN={{refresh_token}}`), both sent to `endpoint` or
 * `https://cognito-idp.<region>.amazonaws.com/` with the user's `SECRET_HASH` (omitted when the
 * client secret is empty: an app client without a secret must not send one). The `cognito` dialect
 * reports Cognito's `__type` errors and refuses challenges. Extracts
 * `AuthenticationResult.AccessToken` as `access_token`, `RefreshToken` and `ExpiresIn` (optional),
 * and injects `Authorization: Bearer {{access_token}}`. Scopes do not apply to InitiateAuth and
 * are ignored.
 *
 * @see https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_InitiateAuth.html
 * @example
 * compilePoolUserpassPreset({ type: 'pool_userpass', region: 'eu-west-1', client_id: 'c', client_secret: 's',
 *   users: [{ username: 'alice', password: 'pw' }] }, site);
 * // procedures: ['preset[0]:pool_userpass:alice', 'preset[0]:pool_userpass-refresh:alice']
 */
export function compilePoolUserpassPreset(preset: PoolUserpassPreset, site: PresetSite): PresetOutput {
  const url = preset.endpoint ?? `https://cognito-idp.${preset.region}.amazonaws.com/`;
  const procedures: PlanProcedure[] = [];
  const clientSecret = preset.client_secret ?? '';
  const secrets: string[] = clientSecret === '' ? [] : [clientSecret];
  const initiateAuth = (name: string, authFlow: string, parameters: Record<string, string>): PlanProcedure => ({
    name,
    origin: site.origin,
    fromPreset: site.type,
    operations: [
      {
        tech: 'http',
        origin: site.origin,
        dialect: 'cognito',
        request: {
          url,
          method: 'POST',
          headers: [
            { name: 'X-Amz-Target', values: [INITIATE_AUTH] },
            { name: 'Content-Type', values: ['application/x-amz-json-1.1'] },
          ],
          cookies: [],
          query: [],
          body: { AuthFlow: authFlow, ClientId: preset.client_id, AuthParameters: parameters },
        },
        extractions: tokenExtractions(site.origin, 'AuthenticationResult.', {
          access: 'AccessToken',
          refresh: 'RefreshToken',
          expiresIn: 'ExpiresIn',
        }),
      },
    ],
    injections: [bearerInjection(site.origin)],
  });

  const users = preset.users.map((user, index) => {
    const hash: Record<string, string> = {};
    if (clientSecret !== '') {
      hash.SECRET_HASH = cognitoSecretHash(user.username, preset.client_id, clientSecret);
      secrets.push(hash.SECRET_HASH);
    }
    const signIn = initiateAuth(presetProcedureName(site, user.username), 'USER_PASSWORD_AUTH', {
      USERNAME: templateOf('username'),
      PASSWORD: templateOf('password'),
      ...hash,
    });
    const refresh = initiateAuth(presetProcedureName(site, user.username, 'refresh'), 'REFRESH_TOKEN_AUTH', {
      REFRESH_TOKEN: templateOf(TOKEN_VARIABLES.refresh),
      ...hash,
    });
    procedures.push(signIn, refresh);
    return presetUser(
      site,
      index,
      user.username,
      presetCredentials(user, { username: user.username, password: user.password }),
      { procedure: signIn.name, refresh: tokenRefresh(refresh.name) },
    );
  });
  return { users, procedures, secrets };
}
