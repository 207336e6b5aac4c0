import { test, expect } from '@playwright/test';
import { createHmac } from 'node:crypto';
import { checkDialectResponse, describeCognitoError } from '../../../../src/runtime/protocols/dialects/index.js';
import { startCognito, type CognitoAppClient, type CognitoServer } from '../../../support/servers/cognito.js';
import { plainSend } from '../../../support/servers/plain-send.js';
import { thrown } from '../../../support/errors.js';
import { recorded, where } from './support.js';

const AMZ_ERROR: [string, string] = ['x-amzn-errortype', 'NotAuthorizedException:'];

test('a __type error shows the type and message, with a hint for the type', () => {
  const body = { __type: 'NotAuthorizedException', message: 'Incorrect username or password.' };
  const error = thrown(() => checkDialectResponse('cognito', recorded(400, body, [AMZ_ERROR]), where));
  expect(error.code).toBe('AUTH_HTTP_STATUS');
  expect(error.message).toBe('Cognito refused the sign-in: NotAuthorizedException: Incorrect username or password.');
  expect(error.hint).toContain('username and password');
  expect(error.context).toMatchObject({ ...where, status: 400 });
});

test('hints follow the type and, for secret hashes and disabled flows, the message', () => {
  const hintOf = (__type: string, message = '') => thrown(() => checkDialectResponse('cognito', recorded(400, { __type, message }), where)).hint;
  expect(hintOf('NotAuthorizedException', 'Unable to verify secret hash for client abc')).toContain('HMAC_SHA256');
  expect(hintOf('InvalidParameterException', 'USER_PASSWORD_AUTH flow not enabled for this client')).toContain('ALLOW_USER_PASSWORD_AUTH');
  expect(hintOf('UserNotFoundException')).toContain('no such user');
  expect(hintOf('UserNotConfirmedException')).toContain('admin-confirm-sign-up');
  expect(hintOf('ResourceNotFoundException', 'User pool client x does not exist.')).toContain('region');
  expect(hintOf('com.amazon.coral.service#UnrecognizedClientException')).toContain('client_id');
});

test('describeCognitoError: namespaced types shortened, Message spelled either way, undefined otherwise', () => {
  expect(describeCognitoError('{"__type":"com.amazonaws.cognito#UserNotFoundException","Message":"User does not exist."}')).toBe(
    'UserNotFoundException: User does not exist.',
  );
  expect(describeCognitoError({ __type: 'TooManyRequestsException' })).toBe('TooManyRequestsException');
  expect(describeCognitoError({ AuthenticationResult: {} })).toBeUndefined();
});

test('the error type may come only in the x-amzn-ErrorType header', () => {
  const error = thrown(() => checkDialectResponse('cognito', recorded(400, '', [AMZ_ERROR]), where));
  expect(error.message).toBe('Cognito refused the sign-in: NotAuthorizedException');
});

test('a 200 with a challenge: AUTH_PROTOCOL "challenge X is not supported yet" with a hint', () => {
  const challenge = (ChallengeName: string) =>
    thrown(() => checkDialectResponse('cognito', recorded(200, { ChallengeName, ChallengeParameters: {}, Session: 's' }), where));
  const mfa = challenge('SOFTWARE_TOKEN_MFA');
  expect(mfa.code).toBe('AUTH_PROTOCOL');
  expect(mfa.message).toBe('challenge SOFTWARE_TOKEN_MFA is not supported yet (Cognito answered it instead of tokens)');
  expect(mfa.hint).toContain('MFA');
  expect(challenge('SMS_MFA').hint).toContain('MFA');
  expect(challenge('NEW_PASSWORD_REQUIRED').hint).toContain('--permanent');
  expect(challenge('PASSWORD_VERIFIER').hint).toContain('ALLOW_USER_PASSWORD_AUTH');
  expect(challenge('SOMETHING_NEW').hint).toContain('no challenge');
});

test('tokens pass', () => {
  const tokens = { AuthenticationResult: { AccessToken: 'a', ExpiresIn: 3600, TokenType: 'Bearer' }, ChallengeParameters: {} };
  expect(() => checkDialectResponse('cognito', recorded(200, tokens), where)).not.toThrow();
});

test.describe('against cognito-local', () => {
  let server: CognitoServer;
  test.beforeAll(async () => {
    server = await startCognito();
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  const initiateAuth = (username: string, password: string, client: CognitoAppClient = server.client) =>
    plainSend({
      method: 'POST',
      url: server.url,
      headers: [
        ['Content-Type', 'application/x-amz-json-1.1'],
        ['X-Amz-Target', 'AWSCognitoIdentityProviderService.InitiateAuth'],
      ],
      body: JSON.stringify({
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: client.clientId,
        AuthParameters: {
          USERNAME: username,
          PASSWORD: password,
          SECRET_HASH: createHmac('sha256', client.clientSecret).update(username + client.clientId).digest('base64'),
        },
      }),
    });

  test('wrong password, disabled flow and NEW_PASSWORD_REQUIRED are explained; tokens pass', async () => {
    const wrongPassword = await initiateAuth('alice', 'wrong');
    expect(thrown(() => checkDialectResponse('cognito', wrongPassword, where))).toMatchObject({
      code: 'AUTH_HTTP_STATUS',
      message: 'Cognito refused the sign-in: NotAuthorizedException: Incorrect username or password.',
      context: { status: 400, url: server.url },
    });

    const srpOnly = await initiateAuth('alice', server.users.alice as string, server.srpOnlyClient);
    const flowError = thrown(() => checkDialectResponse('cognito', srpOnly, where));
    expect(flowError.message).toBe('Cognito refused the sign-in: InvalidParameterException: USER_PASSWORD_AUTH flow not enabled for this client');
    expect(flowError.hint).toContain('ALLOW_USER_PASSWORD_AUTH');

    const pending = await initiateAuth(server.pendingUser.username, server.pendingUser.password);
    expect(pending.responses[0]?.status).toBe(200);
    expect(thrown(() => checkDialectResponse('cognito', pending, where))).toMatchObject({
      code: 'AUTH_PROTOCOL',
      message: 'challenge NEW_PASSWORD_REQUIRED is not supported yet (Cognito answered it instead of tokens)',
    });

    const ok = await initiateAuth('bob', server.users.bob as string);
    expect(ok.responses[0]?.status).toBe(200);
    expect(() => checkDialectResponse('cognito', ok, where)).not.toThrow();
  });
});
