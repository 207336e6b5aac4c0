import { test, expect } from '@playwright/test';
import { checkDialectResponse, describeOAuthError } from '../../../../src/runtime/protocols/dialects/index.js';
import { startOAuthServer, type OAuthServer } from '../../../support/servers/oauth.js';
import { plainSend } from '../../../support/servers/plain-send.js';
import { thrown } from '../../../support/errors.js';
import { recorded, where } from './support.js';

test('an RFC 6749 5.2 error body: error and error_description, with a hint for the code', () => {
  const body = { error: 'invalid_grant', error_description: 'Invalid user credentials' };
  const error = thrown(() => checkDialectResponse('oauth', recorded(400, body), where));
  expect(error.code).toBe('AUTH_HTTP_STATUS');
  expect(error.message).toBe('the token endpoint refused: invalid_grant: Invalid user credentials');
  expect(error.context).toMatchObject({ ...where, status: 400, method: 'POST' });
  expect(error.hint).toContain('username and password');
});

test('each standard error code has its own hint; unknown codes a general one', () => {
  const hintOf = (code: string) => thrown(() => checkDialectResponse('oauth', recorded(401, { error: code }), where)).hint;
  expect(hintOf('invalid_client')).toContain('client_auth: basic');
  expect(hintOf('unsupported_grant_type')).toContain('grant type');
  expect(hintOf('invalid_scope')).toContain('`scopes`');
  expect(hintOf('unauthorized_client')).toContain('Allow this grant type');
  expect(hintOf('access_denied')).toContain('client credentials');
});

test('describeOAuthError: one line from text or parsed JSON, undefined for other bodies', () => {
  expect(describeOAuthError('{"error":"invalid_client"}')).toBe('invalid_client');
  expect(describeOAuthError({ error: 'invalid_request', error_description: 'missing\n  grant_type' })).toBe('invalid_request: missing grant_type');
  expect(describeOAuthError({ error: 'x', error_description: 'y'.repeat(400) })).toBe(`x: ${'y'.repeat(300)}…`);
  expect(describeOAuthError('<html>401</html>')).toBeUndefined();
  expect(describeOAuthError({ message: 'Unauthorized' })).toBeUndefined();
  expect(describeOAuthError(undefined)).toBeUndefined();
});

test('a 200 carrying an error and no token is AUTH_PROTOCOL; tokens and other bodies pass', () => {
  const error = thrown(() => checkDialectResponse('oauth', recorded(200, { error: 'invalid_grant' }), where));
  expect(error.code).toBe('AUTH_PROTOCOL');
  expect(() => checkDialectResponse('oauth', recorded(200, { access_token: 'a', token_type: 'Bearer' }), where)).not.toThrow();
  expect(() => checkDialectResponse('oauth', recorded(500, 'Internal Server Error'), where)).not.toThrow();
});

test.describe('against oidc-provider', () => {
  let server: OAuthServer;
  test.beforeAll(async () => {
    server = await startOAuthServer();
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  const token = (params: Record<string, string>) =>
    plainSend({
      method: 'POST',
      url: server.tokenEndpoint,
      headers: [['Content-Type', 'application/x-www-form-urlencoded']],
      body: new URLSearchParams(params).toString(),
    });

  test('wrong password and wrong client secret are explained; a good request passes', async () => {
    const { clientId, clientSecret } = server.clients.post;
    const badPassword = await token({ grant_type: 'password', username: 'alice', password: 'nope', client_id: clientId, client_secret: clientSecret });
    const grantError = thrown(() => checkDialectResponse('oauth', badPassword, where));
    expect(grantError.message).toBe('the token endpoint refused: invalid_grant: grant request is invalid');
    expect(grantError.context).toMatchObject({ status: 400, url: server.tokenEndpoint });

    const badSecret = await token({ grant_type: 'client_credentials', client_id: clientId, client_secret: 'nope' });
    const clientError = thrown(() => checkDialectResponse('oauth', badSecret, where));
    expect(clientError).toMatchObject({ code: 'AUTH_HTTP_STATUS', message: 'the token endpoint refused: invalid_client: client authentication failed' });
    expect(clientError.hint).toContain('client_secret');

    const ok = await token({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });
    expect(ok.responses[0]?.status).toBe(200);
    expect(() => checkDialectResponse('oauth', ok, where)).not.toThrow();
  });
});
