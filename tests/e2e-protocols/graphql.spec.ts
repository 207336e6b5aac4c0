import { test, expect } from '@playwright/test';
import { request } from 'undici';
import { Redactor } from '../../src/core/redactor.js';
import { authenticate } from '../../src/runtime/engine/authenticate.js';
import type { Session } from '../../src/runtime/session/session.js';
import { startGraphql, type GraphqlServer } from '../support/servers/graphql.js';
import { callAs, expectNoSecrets, headerOf, planFromYaml, signInFailure, yamlString } from './support/sign-in.js';

test.describe.configure({ mode: 'default' });

let server: GraphqlServer;
test.beforeAll(async () => {
  server = await startGraphql();
});
test.afterAll(async () => {
  await server?.stop();
});

const LOGIN = `mutation Login($username: String!, $password: String!) {
        login(username: $username, password: $password) { token refreshToken expiresIn }
      }`;

/** A graphql preset for alice and bob; `extra` adds the preset's own extractions/injections. */
function config(extra = '', passwords: Record<string, string> = server.users): string {
  return `
presets:
  - type: graphql
    url: ${server.url}
    query: |
      ${LOGIN}
${extra}
    users:
${['alice', 'bob']
  .map((user) => `      - { username: ${user}, variables: { username: ${user}, password: ${yamlString(passwords[user] as string)} } }`)
  .join('\n')}
`;
}

const ME = { method: 'POST', url: '', headers: [['Content-Type', 'application/json']] as Array<[string, string]>, body: '{"query":"{ me { username } }"}' };

/** Asks the server's `me` with the session: which user does the server see, with which header? */
async function me(session: Session): Promise<{ user?: string; errors?: string[]; authorization?: string }> {
  const call = await callAs(session, { ...ME, url: server.url });
  expect(call.status).toBe(200);
  return {
    ...(call.json?.data?.me && { user: call.json.data.me.username }),
    ...(call.json?.errors && { errors: call.json.errors.map((e: { message: string }) => e.message) }),
    ...(headerOf(call.sent.headers, 'authorization') && { authorization: headerOf(call.sent.headers, 'authorization') }),
  };
}

test('without a session the server refuses `me`: the checks below can fail', async () => {
  const response = await request(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: ME.body });
  expect(await response.body.json()).toMatchObject({ data: { me: null }, errors: [{ message: 'not authenticated' }] });
});

test('default extraction and injection: the first *token under data, sent as a Bearer token; `me` is the user', async () => {
  const plan = planFromYaml(config());
  for (const user of ['alice', 'bob']) {
    const session = await authenticate(plan, user, { redactor: new Redactor() });
    const token = session.variables.token as string;
    expect(token).toMatch(/^[\w-]{32}$/);
    expect(session.headers).toEqual({ Authorization: [`Bearer ${token}`] });
    expect(session.expiresAt).toBeNull();
    expect(await me(session)).toEqual({ user, authorization: `Bearer ${token}` });
  }
});

test('explicit extractions and injections: the named variable is injected; expires_in sets the expiry', async () => {
  const plan = planFromYaml(
    config(`    extractions:
      - { name: refresh, location: body, key: data.login.refreshToken }
      - { name: jwt, location: body, key: data.login.token }
      - { name: expires_in, location: body, key: data.login.expiresIn }
    injections:
      - { location: header, key: Authorization, prefix: Bearer, variable: jwt }`),
  );
  const session = await authenticate(plan, 'alice', { redactor: new Redactor(), now: () => 1_000_000 });
  expect(session.variables.jwt).not.toBe(session.variables.refresh);
  expect(session.variables.expires_in).toBe('3600');
  expect(session.expiresAt).toBe(1_000_000 + 3_600_000);
  expect(await me(session)).toEqual({ user: 'alice', authorization: `Bearer ${session.variables.jwt}` });
});

test('explicit extractions without injections: the first successful extraction is the Bearer token', async () => {
  const plan = planFromYaml(config('    extractions: [{ name: jwt, location: body, key: data.login.token }]'));
  const session = await authenticate(plan, 'bob', { redactor: new Redactor() });
  expect(await me(session)).toEqual({ user: 'bob', authorization: `Bearer ${session.variables.jwt}` });
});

test('a wrong password: HTTP 200 with errors is AUTH_PROTOCOL with the server\'s message, the password never shown', async () => {
  const wrong = 'alice "wrong" password';
  const plan = planFromYaml(config('', { alice: wrong, bob: server.users.bob as string }));
  const redactor = new Redactor();
  const error = await signInFailure(authenticate(plan, 'alice', { redactor }));
  expect(error.code).toBe('AUTH_PROTOCOL');
  expect(error.message).toBe('the GraphQL server answered with errors: Invalid username or password [UNAUTHENTICATED] at login');
  expect(error.context).toMatchObject({ user: 'alice', status: 200, method: 'POST', url: server.url });
  expectNoSecrets(error, redactor, [wrong]);
});
