import { test, expect } from '@playwright/test';
import { createHmac } from 'node:crypto';
import { request } from 'undici';
import { Redactor } from '../../src/core/redactor.js';
import { authenticate, refreshSession } from '../../src/runtime/engine/authenticate.js';
import type { Session } from '../../src/runtime/session/session.js';
import { startHttpServer, sendJson, type RunningServer } from '../support/servers/node-http.js';
import { cognitoCall, startCognito, type CognitoServer } from '../support/servers/cognito.js';
import { startRelay, type Relay } from './support/relay.js';
import { callAs, expectNoSecrets, headerOf, planFromYaml, signInFailure, yamlString } from './support/sign-in.js';

test.describe.configure({ mode: 'default' });

let cognito: CognitoServer;
/** In front of the Cognito endpoint: records every InitiateAuth the server was sent. */
let relay: Relay;
/** An API behind a Cognito authorizer: `Authorization: Bearer <AccessToken>` -> GetUser -> who. */
let api: RunningServer;
test.beforeAll(async () => {
  cognito = await startCognito();
  relay = await startRelay(cognito.url);
  api = await startHttpServer((req, res) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token) return sendJson(res, 401, { error: 'no bearer token' });
    void cognitoCall(cognito.url, 'GetUser', { AccessToken: token }).then(({ status, json }) =>
      sendJson(res, status === 200 ? 200 : 401, status === 200 ? { username: json.Username } : { error: json.__type }),
    );
  });
});
test.afterAll(async () => {
  await api?.close();
  await relay?.close();
  await cognito?.stop();
});

/** alice and the pending user in a `pool_userpass` preset, bob in a `cognito_userpass` one. */
function config(overrides: { alicePassword?: string; clientSecret?: string } = {}): string {
  const client = `client_id: ${cognito.client.clientId}
    client_secret: ${yamlString(overrides.clientSecret ?? cognito.client.clientSecret)}
    endpoint: ${relay.url}/`;
  return `
presets:
  - type: pool_userpass
    region: eu-west-1
    ${client}
    users:
      - { username: alice, password: ${yamlString(overrides.alicePassword ?? (cognito.users.alice as string))} }
      - { username: ${cognito.pendingUser.username}, password: ${yamlString(cognito.pendingUser.password)} }
  - type: cognito_userpass
    region: us-east-1
    ${client}
    users:
      - { username: bob, password: ${yamlString(cognito.users.bob as string)} }
`;
}

const secretHash = (username: string) =>
  createHmac('sha256', cognito.client.clientSecret).update(username + cognito.client.clientId).digest('base64');

/** The InitiateAuth calls the server was sent from exchange `from` on. */
function initiateAuths(from: number): Array<Record<string, any>> {
  return relay.exchanges.slice(from).map((e) => {
    expect(e.headers['x-amz-target']).toBe('AWSCognitoIdentityProviderService.InitiateAuth');
    expect(e.headers['content-type']).toBe('application/x-amz-json-1.1');
    return JSON.parse(e.body) as Record<string, any>;
  });
}

/** Who the API behind the authorizer sees with the session. */
async function whoami(session: Session): Promise<{ status: number; body: unknown }> {
  const call = await callAs(session, { method: 'GET', url: `${api.url}/whoami`, headers: [] });
  expect(headerOf(call.sent.headers, 'authorization')).toBe(`Bearer ${session.variables.access_token}`);
  return { status: call.status, body: call.json };
}

test('the API refuses a token Cognito did not issue: the checks below can fail', async () => {
  const response = await request(`${api.url}/whoami`, { headers: { authorization: 'Bearer not-a-cognito-token' } });
  expect(response.statusCode).toBe(401);
  await response.body.dump();
});

test('pool_userpass and its alias cognito_userpass: USER_PASSWORD_AUTH with the SECRET_HASH, and GetUser sees the user', async () => {
  const plan = planFromYaml(config());
  for (const user of ['alice', 'bob']) {
    const from = relay.exchanges.length;
    const session = await authenticate(plan, user, { redactor: new Redactor() });
    expect(initiateAuths(from)).toEqual([
      {
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: cognito.client.clientId,
        AuthParameters: { USERNAME: user, PASSWORD: cognito.users[user], SECRET_HASH: secretHash(user) },
      },
    ]);
    expect(relay.exchanges.at(-1)?.status).toBe(200);
    expect(await whoami(session)).toEqual({ status: 200, body: { username: user } });
  }
});

test('ExpiresIn sets the expiry (when it is earlier than the token\'s own exp)', async () => {
  const anHourAgo = Date.now() - 3_600_000;
  const session = await authenticate(planFromYaml(config()), 'alice', { redactor: new Redactor(), now: () => anHourAgo });
  const claims = JSON.parse(Buffer.from((session.variables.access_token as string).split('.')[1] as string, 'base64url').toString()) as { exp: number; iat: number };
  expect(session.variables.expires_in).toBe(String(claims.exp - claims.iat));
  expect(session.expiresAt).toBe(anHourAgo + (claims.exp - claims.iat) * 1000);
});

test('refresh: REFRESH_TOKEN_AUTH with the refresh token and SECRET_HASH; the new token is the same user\'s', async () => {
  const plan = planFromYaml(config());
  const session = await authenticate(plan, 'bob', { redactor: new Redactor() });
  const refreshToken = session.variables.refresh_token as string;
  expect(refreshToken).toEqual(expect.any(String));

  const from = relay.exchanges.length;
  const refreshed = await refreshSession(plan, session, { redactor: new Redactor() });
  expect(initiateAuths(from)).toEqual([
    { AuthFlow: 'REFRESH_TOKEN_AUTH', ClientId: cognito.client.clientId, AuthParameters: { REFRESH_TOKEN: refreshToken, SECRET_HASH: secretHash('bob') } },
  ]);
  expect(relay.exchanges.at(-1)?.status).toBe(200);
  expect(refreshed.origin).toBe('refreshed');
  expect(refreshed.variables.access_token).not.toBe(session.variables.access_token);
  expect(refreshed.variables.refresh_token).toBe(refreshToken);
  expect(refreshed.expiresAt).toEqual(expect.any(Number));
  expect(await whoami(refreshed)).toEqual({ status: 200, body: { username: 'bob' } });
});

test('a refresh token revoked at Cognito (RevokeToken): the refresh is refused, and the user signs in again once', async () => {
  const plan = planFromYaml(config());
  const session = await authenticate(plan, 'bob', { redactor: new Redactor() });
  const revoked = await cognitoCall(cognito.url, 'RevokeToken', {
    ClientId: cognito.client.clientId,
    ClientSecret: cognito.client.clientSecret,
    Token: session.variables.refresh_token,
  });
  expect(revoked.status).toBe(200);

  const from = relay.exchanges.length;
  const renewed = await refreshSession(plan, session, { redactor: new Redactor() });
  expect(initiateAuths(from).map((call) => call.AuthFlow)).toEqual(['REFRESH_TOKEN_AUTH', 'USER_PASSWORD_AUTH']);
  expect(relay.exchanges.slice(from).map((e) => e.status)).toEqual([400, 200]);
  expect(renewed.origin).toBe('signed-in');
  expect(renewed.variables.refresh_token).not.toBe(session.variables.refresh_token);
  expect(await whoami(renewed)).toEqual({ status: 200, body: { username: 'bob' } });
});

test('a wrong password: NotAuthorizedException shown, the password never', async () => {
  const wrong = 'Alice-Wr0ng-Password!';
  const redactor = new Redactor();
  const error = await signInFailure(authenticate(planFromYaml(config({ alicePassword: wrong })), 'alice', { redactor }));
  expect(error.code).toBe('AUTH_HTTP_STATUS');
  expect(error.message).toBe('Cognito refused the sign-in: NotAuthorizedException: Incorrect username or password.');
  expect(error.context).toMatchObject({ user: 'alice', status: 400, method: 'POST', url: `${relay.url}/` });
  expect(expectNoSecrets(error, redactor, [wrong, cognito.client.clientSecret, secretHash('alice')])).toContain('Check the user\'s username and password');
});

test('a wrong client secret: the server cannot verify the SECRET_HASH, and says so', async () => {
  const wrong = 'a-client-secret-of-another-app';
  const redactor = new Redactor();
  const error = await signInFailure(authenticate(planFromYaml(config({ clientSecret: wrong })), 'bob', { redactor }));
  expect(error.code).toBe('AUTH_HTTP_STATUS');
  expect(error.message).toBe(`Cognito refused the sign-in: NotAuthorizedException: Unable to verify secret hash for client ${cognito.client.clientId}`);
  expect(expectNoSecrets(error, redactor, [wrong, cognito.users.bob as string])).toContain('SECRET_HASH is Base64(HMAC_SHA256(client_secret, username + client_id))');
});

test('NEW_PASSWORD_REQUIRED: a clear "not supported yet" AUTH_PROTOCOL error, at once', async () => {
  const { username, password } = cognito.pendingUser;
  const redactor = new Redactor();
  const started = Date.now();
  const error = await signInFailure(authenticate(planFromYaml(config()), username, { redactor }));
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(error.code).toBe('AUTH_PROTOCOL');
  expect(error.message).toBe('challenge NEW_PASSWORD_REQUIRED is not supported yet (Cognito answered it instead of tokens)');
  expect(error.context).toMatchObject({ user: username, status: 200 });
  expect(expectNoSecrets(error, redactor, [password])).toContain('admin-set-user-password');
  expect(relay.exchanges.at(-1)?.status).toBe(200);
});

// Issue 17, item 6: the vendor's current format writes cognito_userpass without client_secret for
// app clients that have none; then no SECRET_HASH is sent.
test('cognito_userpass without a client secret sends no SECRET_HASH and signs in', async () => {
  const plan = planFromYaml(`
presets:
  - type: cognito_userpass
    region: eu-west-1
    client_id: ${cognito.publicClient.clientId}
    endpoint: ${relay.url}/
    users:
      - { username: bob, password: ${yamlString(cognito.users.bob as string)} }
`);
  const from = relay.exchanges.length;
  const session = await authenticate(plan, 'bob', { redactor: new Redactor() });
  expect(initiateAuths(from)).toEqual([
    { AuthFlow: 'USER_PASSWORD_AUTH', ClientId: cognito.publicClient.clientId, AuthParameters: { USERNAME: 'bob', PASSWORD: cognito.users.bob } },
  ]);
  expect(await whoami(session)).toEqual({ status: 200, body: { username: 'bob' } });
});
