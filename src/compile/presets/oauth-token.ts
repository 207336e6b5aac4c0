import type { ConfigPath } from '../../core/path.js';
import type { PlanExtraction, PlanProcedure } from '../plan.js';
import type { RefreshRule } from '../refresh.js';
import { templateOf } from '../../core/template-names.js';
import { clientAuthentication, type ClientAuthMethod } from './oauth-client-auth.js';
import { presetProcedureName, type PresetSite } from './preset-output.js';

/** Variables the OAuth and Cognito presets extract and inject. */
export const TOKEN_VARIABLES = { access: 'access_token', refresh: 'refresh_token', expiresIn: 'expires_in' } as const;

/** One user's OAuth token requests: how to reach the token endpoint and what to ask for. */
export interface OAuthTokenRequest {
  site: PresetSite;
  user: string;
  /** Token endpoint. */
  url: string;
  /** Grant parameters of the sign-in request (`grant_type` and what it needs). */
  grant: Record<string, string>;
  /** Space-separated scopes; absent = no `scope` parameter. */
  scope?: string;
  clientId: string;
  clientSecret: string;
  clientAuth: ClientAuthMethod;
}

/** A sign-in procedure, its refresh procedure, the user's refresh rule and the secrets involved. */
export interface OAuthProcedures {
  signIn: PlanProcedure;
  refresh: PlanProcedure;
  userRefresh: RefreshRule;
  secrets: string[];
}

/**
 * The procedures of an RFC 6749 token grant for one user. Sign-in: `POST url` with a form body of
 * the grant's parameters, `scope` when given, and client authentication. Refresh (section 6):
 * `grant_type=refresh_token&refresh_token={{refresh_token}}` with the same client authentication and
 * no `scope` (the original grant's scope is kept). Both extract `access_token` (required),
 * `refresh_token` and `expires_in` (optional: servers may leave them out) and inject
 * `Authorization: Bearer {{access_token}}`. When no refresh token came back, or the refresh fails,
 * the user signs in again (as every user whose refresh fails).
 *
 * The body is an object sent form-encoded (the Content-Type says so), so each value is encoded once
 * after template expansion.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.3 (password), section 4.4 (client credentials), section 6 (refresh)
 * @example
 * oauthProcedures({ site, user: 'alice', url: 'https://x/oauth/token', clientId: 'app', clientSecret: 's',
 *   clientAuth: 'post', grant: { grant_type: 'password', username: '{{username}}', password: '{{password}}' } });
 */
export function oauthProcedures(request: OAuthTokenRequest): OAuthProcedures {
  const { site, user } = request;
  const auth = clientAuthentication(request.clientAuth, request.clientId, request.clientSecret);
  const scope: Record<string, string> = request.scope === undefined ? {} : { scope: request.scope };
  const tokenRequest = (name: string, body: Record<string, string>): PlanProcedure => ({
    name,
    origin: site.origin,
    fromPreset: site.type,
    operations: [
      {
        tech: 'http',
        origin: site.origin,
        dialect: 'oauth',
        request: {
          url: request.url,
          method: 'POST',
          headers: [
            { name: 'Content-Type', values: ['application/x-www-form-urlencoded'] },
            { name: 'Accept', values: ['application/json'] },
            ...auth.headers,
          ],
          cookies: [],
          query: [],
          body: { ...body, ...auth.body },
        },
        extractions: tokenExtractions(site.origin, ''),
      },
    ],
    injections: [bearerInjection(site.origin)],
  });
  const signIn = tokenRequest(presetProcedureName(site, user), { ...request.grant, ...scope });
  const refresh = tokenRequest(presetProcedureName(site, user, 'refresh'), {
    grant_type: 'refresh_token',
    refresh_token: templateOf(TOKEN_VARIABLES.refresh),
  });
  return { signIn, refresh, userRefresh: tokenRefresh(refresh.name), secrets: auth.secrets };
}

/**
 * The three token extractions, reading `<prefix>access_token` etc. from a JSON body: the access
 * token is required, the refresh token and lifetime are optional.
 *
 * @example
 * tokenExtractions(['presets', 0], 'AuthenticationResult.', { access: 'AccessToken', refresh: 'RefreshToken', expiresIn: 'ExpiresIn' });
 */
export function tokenExtractions(
  origin: ConfigPath,
  prefix: string,
  keys: { access: string; refresh: string; expiresIn: string } = TOKEN_VARIABLES,
): PlanExtraction[] {
  return [
    { name: TOKEN_VARIABLES.access, location: 'body', key: `${prefix}${keys.access}`, origin },
    { name: TOKEN_VARIABLES.refresh, location: 'body', key: `${prefix}${keys.refresh}`, optional: true, origin },
    { name: TOKEN_VARIABLES.expiresIn, location: 'body', key: `${prefix}${keys.expiresIn}`, optional: true, origin },
  ];
}

/**
 * `Authorization: Bearer {{access_token}}`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-2.1
 * @example
 * bearerInjection(['presets', 0]); // { location: 'header', key: 'Authorization', prefix: 'Bearer', variable: 'access_token', origin: [...] }
 */
export function bearerInjection(origin: ConfigPath): PlanProcedure['injections'][number] {
  return { location: 'header', key: 'Authorization', prefix: 'Bearer', variable: TOKEN_VARIABLES.access, origin };
}

/**
 * The refresh rule of token presets: run `procedure` (which needs `{{refresh_token}}`), keep what it
 * does not renew (a refresh answer may omit the refresh token); like every refresh, one that cannot
 * run signs in again.
 * The session's lifetime comes from `expires_in` or the token itself.
 *
 * @example
 * tokenRefresh('preset[0]:oauth_userpass-refresh:alice');
 */
export function tokenRefresh(procedure: string): RefreshRule {
  return { procedure, keep: true };
}
