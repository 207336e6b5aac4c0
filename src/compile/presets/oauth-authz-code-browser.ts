import type { OAuthAuthzCodeBrowserPreset } from '../../config/index.js';
import type { PlanBrowserOperation, PlanProcedure } from '../plan.js';
import { presetCredentials, scopesString } from '../normalize.js';
import { templateOf } from '../../core/template-names.js';
import { oauthProcedures } from './oauth-token.js';
import { presetUser, type PresetOutput, type PresetSite } from './preset-output.js';

/** The variable the browser step leaves the authorization code in. */
export const AUTHORIZATION_CODE_VARIABLE = 'authorization_code';

/**
 * `oauth_authz_code_browser`: per user, a sign-in procedure of two operations and a refresh
 * procedure.
 * 1. browser: opens the authorization request (`response_type=code`, `client_id`, `redirect_uri`,
 *    `scope`, `state={{state}}`, with PKCE `code_challenge={{pkce_challenge}}` and S256, `nonce` for
 *    `openid`, `prompt=consent` for `offline_access` as OpenID Connect Core 11 asks), runs the
 *    user's recorded steps or the default login, and ends at the intercepted redirect with
 *    `{{authorization_code}}`;
 * 2. http: the token request `grant_type=authorization_code` with `code`, `redirect_uri` and
 *    `code_verifier={{pkce_verifier}}`, client authentication as the preset says (none for a
 *    public client).
 * The refresh uses the refresh token (see `oauthProcedures`). The user's password and
 * `totp_secret` are credentials and a variable: masked, never sent but where the login page asks.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1
 * @see https://www.rfc-editor.org/rfc/rfc7636
 * @example
 * compileOAuthAuthzCodeBrowserPreset({ type: 'oauth_authz_code_browser', authorization_url: 'https://idp/auth',
 *   token_url: 'https://idp/token', client_id: 'spa', redirect_uri: 'http://localhost:1/cb',
 *   users: [{ username: 'alice', password: 'pw' }] }, site);
 */
export function compileOAuthAuthzCodeBrowserPreset(preset: OAuthAuthzCodeBrowserPreset, site: PresetSite): PresetOutput {
  const procedures: PlanProcedure[] = [];
  const secrets: string[] = [];
  const pkce = preset.use_pkce !== false;
  const users = preset.users.map((user, index) => {
    const compiled = oauthProcedures({
      site,
      user: user.username,
      url: preset.token_url,
      grant: {
        grant_type: 'authorization_code',
        code: templateOf(AUTHORIZATION_CODE_VARIABLE),
        redirect_uri: preset.redirect_uri,
        ...(pkce ? { code_verifier: templateOf('pkce_verifier') } : {}),
      },
      clientId: preset.client_id,
      clientSecret: preset.client_secret ?? '',
      clientAuth: preset.client_secret === undefined ? 'none' : (preset.client_auth ?? 'post'),
    });
    const browser: PlanBrowserOperation = {
      tech: 'browser',
      // Recorded steps are located under `origin.project`: point at the user.
      origin: [...site.origin, 'users', index],
      project: user.project ?? { tests: [] },
      extractions: [],
      authorize: { url: authorizationRequest(preset, pkce), redirectUri: preset.redirect_uri, defaultLogin: user.project === undefined },
    };
    if (preset.wait_for_seconds !== undefined) browser.waitForSeconds = preset.wait_for_seconds;
    compiled.signIn.operations.unshift(browser);
    procedures.push(compiled.signIn, compiled.refresh);
    secrets.push(...compiled.secrets);
    return presetUser(
      site,
      index,
      user.username,
      presetCredentials(user, { username: user.username, password: user.password }),
      {
        procedure: compiled.signIn.name,
        refresh: compiled.userRefresh,
        variables: user.totp_secret === undefined ? {} : { totp_secret: user.totp_secret },
        ...(user.passkey === undefined ? {} : { passkey: user.passkey }),
      },
    );
  });
  return { users, procedures, secrets };
}

function authorizationRequest(preset: OAuthAuthzCodeBrowserPreset, pkce: boolean): string {
  const scope = scopesString(preset.scopes);
  const scopes = new Set(scope?.split(' ') ?? []);
  const fixed = new URLSearchParams({ response_type: 'code', client_id: preset.client_id, redirect_uri: preset.redirect_uri });
  if (scope !== undefined) fixed.set('scope', scope);
  if (scopes.has('offline_access')) fixed.set('prompt', 'consent');
  // Per sign-in values are URL-safe (base64url): they go in as templates, after the encoded rest.
  const fresh = [`state=${templateOf('state')}`];
  if (scopes.has('openid')) fresh.push(`nonce=${templateOf('nonce')}`);
  if (pkce) fresh.push(`code_challenge=${templateOf('pkce_challenge')}`, 'code_challenge_method=S256');
  const separator = preset.authorization_url.includes('?') ? '&' : '?';
  return `${preset.authorization_url}${separator}${fixed.toString()}&${fresh.join('&')}`;
}
