import { test, expect } from '@playwright/test';
import { request } from 'undici';
import { startOAuthServer, type OAuthClient, type OAuthServer } from './oauth.js';
import { postText } from './plain-send.js';

let server: OAuthServer;
test.beforeAll(async () => {
  server = await startOAuthServer({ accessTokenTtl: 2 });
});
test.afterAll(async () => {
  await server?.stop();
});

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** RFC 6749 2.3.1: client_secret_post puts the credentials in the form... */
function tokenPost(client: OAuthClient, params: Record<string, string>) {
  const body = new URLSearchParams({ ...params, client_id: client.clientId, client_secret: client.clientSecret });
  return postText(server.tokenEndpoint, FORM, body.toString());
}

/** ...client_secret_basic in an Authorization header, each part form-encoded first. */
function tokenBasic(client: OAuthClient, params: Record<string, string>) {
  const encode = (s: string) => new URLSearchParams({ s }).toString().slice(2);
  const basic = Buffer.from(`${encode(client.clientId)}:${encode(client.clientSecret)}`).toString('base64');
  return postText(server.tokenEndpoint, { ...FORM, authorization: `Basic ${basic}` }, new URLSearchParams(params).toString());
}

async function whoami(token: unknown): Promise<{ status: number; body: unknown }> {
  const response = await request(server.whoamiUrl, { headers: { authorization: `Bearer ${String(token)}` } });
  return { status: response.statusCode, body: await response.body.json() };
}

const tokenOf = (json: unknown) => (json as { access_token?: string }).access_token;

test('client_credentials with client_secret_post: the server sees the client', async () => {
  const { status, json } = await tokenPost(server.clients.post, { grant_type: 'client_credentials', scope: 'api:read' });
  expect(status).toBe(200);
  expect(json).toMatchObject({ token_type: 'Bearer', expires_in: 2, scope: 'api:read' });
  expect(await whoami(tokenOf(json))).toEqual({
    status: 200, body: { client_id: server.clients.post.clientId, scope: 'api:read', kind: 'ClientCredentials' },
  });
});

test('client_credentials with client_secret_basic, no scope asked: none granted', async () => {
  const { status, json } = await tokenBasic(server.clients.basic, { grant_type: 'client_credentials' });
  expect(status).toBe(200);
  expect(json).not.toHaveProperty('scope');
  expect(await whoami(tokenOf(json))).toEqual({ status: 200, body: { client_id: server.clients.basic.clientId, kind: 'ClientCredentials' } });
});

test('password grant with either client authentication: the server sees the user', async () => {
  const alice = await tokenPost(server.clients.post, { grant_type: 'password', username: 'alice', password: server.users.alice as string, scope: 'openid api:write' });
  expect(alice.status).toBe(200);
  expect(alice.json).toMatchObject({ token_type: 'Bearer', refresh_token: expect.any(String), scope: 'openid api:write' });
  expect((await whoami(tokenOf(alice.json))).body).toMatchObject({ client_id: server.clients.post.clientId, sub: 'alice' });

  const bob = await tokenBasic(server.clients.basic, { grant_type: 'password', username: 'bob', password: server.users.bob as string });
  expect(bob.status).toBe(200);
  expect((await whoami(tokenOf(bob.json))).body).toMatchObject({ client_id: server.clients.basic.clientId, sub: 'bob' });
});

test('refresh_token after the access token expired: a new token for the same user', async () => {
  const first = await tokenBasic(server.clients.basic, { grant_type: 'password', username: 'bob', password: server.users.bob as string });
  const { refresh_token: refreshToken } = first.json as { refresh_token: string };
  await new Promise((r) => setTimeout(r, 2_500));
  expect((await whoami(tokenOf(first.json))).status).toBe(401);
  const refreshed = await tokenBasic(server.clients.basic, { grant_type: 'refresh_token', refresh_token: refreshToken });
  expect(refreshed.status).toBe(200);
  expect(tokenOf(refreshed.json)).not.toBe(tokenOf(first.json));
  expect(await whoami(tokenOf(refreshed.json))).toMatchObject({ status: 200, body: { sub: 'bob' } });
});

test('failures are RFC 6749 5.2 error bodies', async () => {
  const badPassword = await tokenPost(server.clients.post, { grant_type: 'password', username: 'alice', password: 'nope' });
  expect(badPassword).toMatchObject({ status: 400, json: { error: 'invalid_grant' } });
  const badSecret = await tokenPost({ ...server.clients.post, clientSecret: 'nope' }, { grant_type: 'client_credentials' });
  expect(badSecret).toMatchObject({ status: 401, json: { error: 'invalid_client' } });
  const postForBasic = await tokenPost(server.clients.basic, { grant_type: 'client_credentials' });
  expect(postForBasic).toMatchObject({ status: 401, json: { error: 'invalid_client', error_description: expect.stringContaining('client_secret_basic') } });
  const basicForPost = await tokenBasic(server.clients.post, { grant_type: 'client_credentials' });
  expect(basicForPost).toMatchObject({ status: 401, json: { error: 'invalid_client', error_description: expect.stringContaining('client_secret_post') } });
  const badScope = await tokenPost(server.clients.post, { grant_type: 'password', username: 'alice', password: server.users.alice as string, scope: 'admin' });
  expect(badScope).toMatchObject({ status: 400, json: { error: 'invalid_scope' } });
});
