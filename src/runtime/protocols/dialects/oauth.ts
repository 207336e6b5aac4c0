import { MultiAuthError, type AuthContext } from '../../../core/errors.js';
import type { ObservedResponse } from '../../http/observation.js';
import { cut, jsonObject } from './text.js';

/** What to check for each RFC 6749 section 5.2 error code (and RFC 8707's `invalid_target`). */
const HINTS: Record<string, string> = {
  invalid_request: 'The server finds the token request malformed: check the preset\'s `url` and the parameters this server expects.',
  invalid_client:
    'Check client_id and client_secret, and the client authentication method: `client_auth: basic` for client_secret_basic, the default is client_secret_post.',
  invalid_grant: 'Check the user\'s username and password (or, on refresh, the refresh token: it may have expired or been used already).',
  unauthorized_client: 'Allow this grant type (client_credentials, password or refresh_token) for the client on the server.',
  unsupported_grant_type: 'The server does not offer this grant type (the password grant is often disabled): check its configuration.',
  invalid_scope: 'Check the user\'s `scopes` against the scopes this client may request.',
  invalid_target: 'Check the requested resource (audience) against what the server knows.',
};

/**
 * An RFC 6749 error response in one line, `error: error_description`; undefined when the body
 * has no string `error`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2
 * @example
 * describeOAuthError('{"error":"invalid_grant","error_description":"wrong password"}'); // 'invalid_grant: wrong password'
 */
export function describeOAuthError(body: unknown): string | undefined {
  const json = jsonObject(body);
  if (typeof json?.error !== 'string' || json.error === '') return undefined;
  const description = typeof json.error_description === 'string' && json.error_description ? `: ${cut(json.error_description)}` : '';
  return `${cut(json.error, 100)}${description}`;
}

/**
 * Fails an OAuth token response that carries an RFC 6749 error: on a status of 400 or more
 * `AUTH_HTTP_STATUS`, on a success status without `access_token` `AUTH_PROTOCOL`; the message
 * shows `error` and `error_description`, the hint what that error usually means. Other bodies are
 * left to the HTTP status check.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2
 * @example
 * checkOAuthResponse(response, { user: 'alice', step: 0, status: 400 }); // throws 'the token endpoint refused: invalid_grant: ...'
 */
export function checkOAuthResponse(response: ObservedResponse, context: AuthContext): void {
  const described = describeOAuthError(response.body);
  if (described === undefined) return;
  const json = jsonObject(response.body) ?? {};
  if (response.status < 400 && 'access_token' in json) return;
  throw new MultiAuthError(response.status >= 400 ? 'AUTH_HTTP_STATUS' : 'AUTH_PROTOCOL', `the token endpoint refused: ${described}`, {
    context,
    hint: HINTS[json.error as string] ?? 'Check the preset\'s `url`, the client credentials and the user\'s credentials.',
  });
}
