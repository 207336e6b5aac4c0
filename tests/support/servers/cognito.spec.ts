import { test, expect } from '@playwright/test';
import { createHmac } from 'node:crypto';
import { cognitoCall, startCognito, type CognitoAppClient, type CognitoServer } from './cognito.js';

let server: CognitoServer;
test.beforeAll(async () => {
  server = await startCognito();
});
test.afterAll(async () => {
  await server?.stop();
});

/** SECRET_HASH = Base64(HMAC_SHA256(client_secret, username + client_id)). */
const secretHash = (client: CognitoAppClient, username: string) =>
  createHmac('sha256', client.clientSecret).update(username + client.clientId).digest('base64');

function signIn(username: string, password: string, client: CognitoAppClient = server.client, hash = secretHash(client, username)) {
  return cognitoCall(server.url, 'InitiateAuth', {
    AuthFlow: 'USER_PASSWORD_AUTH',
    ClientId: client.clientId,
    AuthParameters: { USERNAME: username, PASSWORD: password, SECRET_HASH: hash },
  });
}

interface Tokens {
  AccessToken: string;
  RefreshToken?: string;
  ExpiresIn: number;
  TokenType: string;
}

test('USER_PASSWORD_AUTH with the SECRET_HASH: tokens, and GetUser sees the user', async () => {
  for (const username of ['alice', 'bob']) {
    const { status, json } = await signIn(username, server.users[username] as string);
    expect(status).toBe(200);
    const tokens = json.AuthenticationResult as Tokens;
    expect(tokens).toMatchObject({ AccessToken: expect.any(String), RefreshToken: expect.any(String), TokenType: 'Bearer' });
    expect(tokens.ExpiresIn).toBeGreaterThan(0);
    const me = await cognitoCall(server.url, 'GetUser', { AccessToken: tokens.AccessToken });
    expect(me).toMatchObject({ status: 200, json: { Username: username } });
  }
});

test('REFRESH_TOKEN_AUTH with the token owner\'s SECRET_HASH gives a new access token for the same user', async () => {
  const first = (await signIn('alice', server.users.alice as string)).json.AuthenticationResult as Tokens;
  const refresh = (username: string) =>
    cognitoCall(server.url, 'InitiateAuth', {
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      ClientId: server.client.clientId,
      AuthParameters: { REFRESH_TOKEN: first.RefreshToken, SECRET_HASH: secretHash(server.client, username) },
    });
  expect((await refresh('bob')).json).toEqual({
    __type: 'NotAuthorizedException', message: `Unable to verify secret hash for client ${server.client.clientId}`,
  });
  const { status, json } = await refresh('alice');
  expect(status).toBe(200);
  const refreshed = json.AuthenticationResult as Tokens;
  expect(refreshed.AccessToken).toEqual(expect.any(String));
  expect(refreshed.RefreshToken).toBeUndefined();
  expect((await cognitoCall(server.url, 'GetUser', { AccessToken: refreshed.AccessToken })).json.Username).toBe('alice');
});

test('the front refuses what Cognito refuses', async () => {
  expect(await signIn('alice', 'wrong')).toEqual({
    status: 400, json: { __type: 'NotAuthorizedException', message: 'Incorrect username or password.' },
  });
  const rawSecret = await signIn('alice', server.users.alice as string, server.client, server.client.clientSecret);
  expect(rawSecret).toEqual({
    status: 400, json: { __type: 'NotAuthorizedException', message: `Unable to verify secret hash for client ${server.client.clientId}` },
  });
  const otherUsersHash = await signIn('alice', server.users.alice as string, server.client, secretHash(server.client, 'bob'));
  expect(otherUsersHash.json.__type).toBe('NotAuthorizedException');
  const srpOnly = await signIn('alice', server.users.alice as string, server.srpOnlyClient);
  expect(srpOnly).toEqual({
    status: 400, json: { __type: 'InvalidParameterException', message: 'USER_PASSWORD_AUTH flow not enabled for this client' },
  });
});

test('a user in FORCE_CHANGE_PASSWORD gets the NEW_PASSWORD_REQUIRED challenge with HTTP 200', async () => {
  const { status, json } = await signIn(server.pendingUser.username, server.pendingUser.password);
  expect(status).toBe(200);
  expect(json).toMatchObject({ ChallengeName: 'NEW_PASSWORD_REQUIRED', Session: expect.any(String) });
  expect(json).not.toHaveProperty('AuthenticationResult');
});
