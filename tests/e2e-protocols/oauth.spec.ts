import { test, expect } from '@playwright/test';
import { Redactor } from '../../src/core/redactor.js';
import { authenticate, refreshSession } from '../../src/runtime/engine/authenticate.js';
import type { Session } from '../../src/runtime/session/session.js';
import { startOAuthServer, type OAuthServer } from '../support/servers/oauth.js';
import { startRelay, type Relay } from './support/relay.js';
import { callAs, expectNoSecrets, headerOf, planFromYaml, signInFailure, yamlString } from './support/sign-in.js';

test.describe.configure({ mode: 'default' });

const TTL = 600;
let server: OAuthServer;
/** In front of the token endpoint: records every token request oidc-provider was sent. */
let relay: Relay;
test.beforeAll(async () => {
  server = await startOAuthServer({ accessTokenTtl: TTL });
  relay = await startRelay(server.url);
});
test.afterAll(async () => {
  await relay?.close();
  await server?.stop();
});

/**
 * Both presets, both client authentications: `reporting` and `nightly` are the client_secret_post
 * client (scopes as a string / none), `billing` the client_secret_basic one (scopes as a list);
 * `alice` and `bob` use the password grant through either client. `overrides` replace secrets.
 */
function config(overrides: { postSecret?: string; alicePassword?: string } = {}): string {
  const { post, basic } = server.clients;
  const postSecret = yamlString(overrides.postSecret ?? post.clientSecret);
  const url = `${relay.url}/token`;
  return `
presets:
  - type: oauth_client_credentials
    url: ${url}
    users:
      - { username: reporting, client_id: ${post.clientId}, client_secret: ${postSecret}, scopes: "api:read api:write" }
      - { username: nightly, client_id: ${post.clientId}, client_secret: ${postSecret} }
  - type: oauth_client_credentials
    url: ${url}
    client_auth: basic
    users:
      - { username: billing, client_id: ${basic.clientId}, client_secret: ${yamlString(basic.clientSecret)}, scopes: [api:read, api:write] }
  - type: oauth_userpass
    url: ${url}
    client_id: ${post.clientId}
    client_secret: ${postSecret}
    users:
      - { username: alice, password: ${yamlString(overrides.alicePassword ?? (server.users.alice as string))}, scopes: [openid, api:write] }
  - type: oauth_ropc
    url: ${url}
    client_id: ${basic.clientId}
    client_secret: ${yamlString(basic.clientSecret)}
    client_auth: basic
    users:
      - { username: bob, password: ${yamlString(server.users.bob as string)}, scopes: api:read }
`;
}

/** What oidc-provider's whoami says about the session's Bearer token. */
async function whoami(session: Session): Promise<{ status: number; body: Record<string, string> }> {
  const call = await callAs(session, { method: 'GET', url: server.whoamiUrl, headers: [] });
  expect(headerOf(call.sent.headers, 'authorization')).toBe(`Bearer ${session.variables.access_token}`);
  return { status: call.status, body: call.json };
}

/** The token requests oidc-provider was sent from exchange `from` on. */
function tokenRequests(from: number): Array<{ form: URLSearchParams; authorization?: string }> {
  return relay.exchanges.slice(from).map((e) => ({ form: new URLSearchParams(e.body), ...(e.headers.authorization && { authorization: e.headers.authorization }) }));
}

const basicOf = (id: string, secret: string) => {
  const encode = (s: string) => new URLSearchParams({ s }).toString().slice(2);
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}`;
};

test('client_credentials, client_secret_post (default), scopes as a string: the server sees the client and its scopes', async () => {
  const from = relay.exchanges.length;
  const session = await authenticate(planFromYaml(config()), 'reporting', { redactor: new Redactor() });
  const [sent, ...more] = tokenRequests(from);
  expect(more).toEqual([]);
  expect(sent?.authorization).toBeUndefined();
  expect(Object.fromEntries(sent?.form ?? [])).toEqual({
    grant_type: 'client_credentials', scope: 'api:read api:write', client_id: server.clients.post.clientId, client_secret: server.clients.post.clientSecret,
  });
  expect(await whoami(session)).toEqual({ status: 200, body: { client_id: server.clients.post.clientId, scope: 'api:read api:write', kind: 'ClientCredentials' } });
});

test('client_credentials without scopes: no scope parameter, none granted', async () => {
  const from = relay.exchanges.length;
  const session = await authenticate(planFromYaml(config()), 'nightly', { redactor: new Redactor() });
  expect([...(tokenRequests(from)[0]?.form.keys() ?? [])]).toEqual(['grant_type', 'client_id', 'client_secret']);
  expect(await whoami(session)).toEqual({ status: 200, body: { client_id: server.clients.post.clientId, kind: 'ClientCredentials' } });
});

test('client_credentials, client_auth: basic, scopes as a list: credentials only in the Basic header', async () => {
  const { clientId, clientSecret } = server.clients.basic;
  const from = relay.exchanges.length;
  const session = await authenticate(planFromYaml(config()), 'billing', { redactor: new Redactor() });
  const [sent] = tokenRequests(from);
  expect(sent?.authorization).toBe(basicOf(clientId, clientSecret));
  expect(Object.fromEntries(sent?.form ?? [])).toEqual({ grant_type: 'client_credentials', scope: 'api:read api:write' });
  expect(await whoami(session)).toEqual({ status: 200, body: { client_id: clientId, scope: 'api:read api:write', kind: 'ClientCredentials' } });
});

test('oauth_userpass (password grant) with either client authentication: the server sees the user', async () => {
  const plan = planFromYaml(config());
  const from = relay.exchanges.length;
  const alice = await authenticate(plan, 'alice', { redactor: new Redactor() });
  const bob = await authenticate(plan, 'bob', { redactor: new Redactor() });
  const [forAlice, forBob] = tokenRequests(from);
  expect(Object.fromEntries(forAlice?.form ?? [])).toEqual({
    grant_type: 'password', username: 'alice', password: server.users.alice, scope: 'openid api:write',
    client_id: server.clients.post.clientId, client_secret: server.clients.post.clientSecret,
  });
  expect(forBob?.authorization).toBe(basicOf(server.clients.basic.clientId, server.clients.basic.clientSecret));
  expect(Object.fromEntries(forBob?.form ?? [])).toEqual({ grant_type: 'password', username: 'bob', password: server.users.bob, scope: 'api:read' });

  expect(await whoami(alice)).toEqual({ status: 200, body: { client_id: server.clients.post.clientId, sub: 'alice', scope: 'openid api:write', kind: 'AccessToken' } });
  expect(await whoami(bob)).toEqual({ status: 200, body: { client_id: server.clients.basic.clientId, sub: 'bob', scope: 'api:read', kind: 'AccessToken' } });
});

test('expires_in sets the session\'s expiry', async () => {
  const plan = planFromYaml(config());
  for (const user of ['reporting', 'alice']) {
    const session = await authenticate(plan, user, { redactor: new Redactor(), now: () => 5_000_000 });
    expect(session.variables.expires_in).toBe(String(TTL));
    expect(session.expiresAt).toBe(5_000_000 + TTL * 1000);
  }
});

test('refresh after the password grant: the server is sent a refresh_token grant, and the new token is the same user\'s', async () => {
  const plan = planFromYaml(config());
  const session = await authenticate(plan, 'alice', { redactor: new Redactor() });
  const refreshToken = session.variables.refresh_token as string;
  expect(refreshToken).toEqual(expect.any(String));

  const from = relay.exchanges.length;
  const refreshed = await refreshSession(plan, session, { redactor: new Redactor() });
  const sent = tokenRequests(from);
  expect(sent.map((r) => Object.fromEntries(r.form))).toEqual([
    { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: server.clients.post.clientId, client_secret: server.clients.post.clientSecret },
  ]);
  expect(relay.exchanges.at(-1)?.status).toBe(200);
  expect(refreshed.origin).toBe('refreshed');
  expect(refreshed.variables.access_token).not.toBe(session.variables.access_token);
  expect(refreshed.variables.refresh_token).toEqual(expect.any(String));
  expect(await whoami(refreshed)).toMatchObject({ status: 200, body: { sub: 'alice', kind: 'AccessToken' } });
});

test('refresh after client_credentials (no refresh token came back): the client signs in again', async () => {
  const plan = planFromYaml(config());
  const session = await authenticate(plan, 'billing', { redactor: new Redactor() });
  expect(session.variables.refresh_token).toBeUndefined();

  const from = relay.exchanges.length;
  const refreshed = await refreshSession(plan, session, { redactor: new Redactor() });
  expect(tokenRequests(from).map((r) => r.form.get('grant_type'))).toEqual(['client_credentials']);
  expect(refreshed.variables.access_token).not.toBe(session.variables.access_token);
  expect(await whoami(refreshed)).toEqual({ status: 200, body: { client_id: server.clients.basic.clientId, scope: 'api:read api:write', kind: 'ClientCredentials' } });
});

test('a refresh token revoked at the provider (RFC 7009): the refresh is refused, and the user signs in again once', async () => {
  const plan = planFromYaml(config());
  const session = await authenticate(plan, 'alice', { redactor: new Redactor() });
  const { clientId, clientSecret } = server.clients.post;
  const revoked = await fetch(server.revocationEndpoint, {
    method: 'POST',
    body: new URLSearchParams({ token: session.variables.refresh_token as string, token_type_hint: 'refresh_token', client_id: clientId, client_secret: clientSecret }),
  });
  expect(revoked.status).toBe(200);

  const from = relay.exchanges.length;
  const renewed = await refreshSession(plan, session, { redactor: new Redactor() });
  expect(tokenRequests(from).map((r) => r.form.get('grant_type'))).toEqual(['refresh_token', 'password']);
  expect(relay.exchanges.slice(from).map((e) => e.status)).toEqual([400, 200]);
  expect(renewed.origin).toBe('signed-in');
  expect(await whoami(renewed)).toMatchObject({ status: 200, body: { sub: 'alice', kind: 'AccessToken' } });
});

test('a wrong client secret: invalid_client from the server, the secret never shown', async () => {
  const wrong = 'not-the-client-secret';
  const redactor = new Redactor();
  const error = await signInFailure(authenticate(planFromYaml(config({ postSecret: wrong })), 'reporting', { redactor }));
  expect(error.code).toBe('AUTH_HTTP_STATUS');
  expect(error.message).toBe('the token endpoint refused: invalid_client: client authentication failed');
  expect(error.context).toMatchObject({ user: 'reporting', status: 401, method: 'POST', url: `${relay.url}/token` });
  expect(expectNoSecrets(error, redactor, [wrong])).toContain('client_auth: basic');
});

test('a wrong password: invalid_grant from the server, the password never shown', async () => {
  const wrong = 'alice-password-wrong';
  const redactor = new Redactor();
  const error = await signInFailure(authenticate(planFromYaml(config({ alicePassword: wrong })), 'alice', { redactor }));
  expect(error.code).toBe('AUTH_HTTP_STATUS');
  // oidc-provider keeps the reason in error_detail, which it does not send: its description is generic.
  expect(error.message).toBe('the token endpoint refused: invalid_grant: grant request is invalid');
  expect(error.context).toMatchObject({ user: 'alice', status: 400 });
  expect(expectNoSecrets(error, redactor, [wrong, server.clients.post.clientSecret])).toContain('username and password');
});

// Issue 16: a user refused for a missing scope was told to check its password. oidc-provider's
// userinfo endpoint refuses a token without `openid` with 403 and a Bearer insufficient_scope challenge.
test('a user whose token lacks a scope is told which scope, not to check the password', async () => {
  const { post } = server.clients;
  const plan = planFromYaml(`
validation: { url: "${server.url}/me" }
presets:
  - type: oauth_userpass
    url: ${relay.url}/token
    client_id: ${post.clientId}
    client_secret: ${yamlString(post.clientSecret)}
    users:
      - { username: alice, password: ${yamlString(server.users.alice as string)}, scopes: [openid, api:read] }
      - { username: bob, password: ${yamlString(server.users.bob as string)}, scopes: [api:read] }
`);
  const redactor = new Redactor();
  await authenticate(plan, 'alice', { redactor });
  const error = await signInFailure(authenticate(plan, 'bob', { redactor }));
  expect(error.code).toBe('AUTH_VALIDATION');
  expect(error.message).toBe('the session check failed: HTTP 403, expected a 2xx status');
  expect(error.details).toContain('the server says: insufficient_scope: access token missing openid scope (needs scope "openid")');
  expect(error.hint).toContain('its token lacks a scope this request needs');
  expect(error.hint).not.toContain('credentials');
  expectNoSecrets(error, redactor, [server.users.bob as string, post.clientSecret]);
});

// Issue 17, item 6: `audience` (Auth0, Entra ID) on oauth_client_credentials, the preset's or the user's own.
test('oauth_client_credentials sends the audience of the user, else of the preset', async () => {
  const { post } = server.clients;
  const plan = planFromYaml(`
presets:
  - type: oauth_client_credentials
    url: ${relay.url}/token
    audience: https://api.example.test
    users:
      - { username: reporting, client_id: ${post.clientId}, client_secret: ${yamlString(post.clientSecret)} }
      - { username: billing, client_id: ${post.clientId}, client_secret: ${yamlString(post.clientSecret)}, audience: https://billing.example.test }
`);
  const from = relay.forms('/token').length;
  for (const user of ['reporting', 'billing']) await authenticate(plan, user, { redactor: new Redactor() });
  const sent = relay.forms('/token').slice(from);
  expect(sent.map((form) => [form.get('grant_type'), form.get('audience')])).toEqual([
    ['client_credentials', 'https://api.example.test'],
    ['client_credentials', 'https://billing.example.test'],
  ]);
});
