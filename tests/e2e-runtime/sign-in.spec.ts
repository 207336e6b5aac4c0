import { MultiAuthError } from '../../src/core/errors.js';
import { MASK, Redactor } from '../../src/core/redactor.js';
import { authenticate } from '../../src/runtime/engine/authenticate.js';
import { test, expect } from '../support/demo.js';
import { planFromYaml } from '../support/plan.js';
import { whoami } from '../support/whoami.js';
import { formLoginProcedure } from '../support/config-texts.js';

/** One `http` preset per injection location, all signing in at the demo's token endpoint. */
function tokenPreset(url: string, injection: string, users = '[{ username: alice, password: alice-password }, { username: bob, password: bob-password }]'): string {
  return `
  - type: http
    request:
      url: ${url}/auth/token
      method: POST
      body: { username: "{{username}}", password: "{{password}}" }
    extractions:
      - { name: access_token, location: body, key: data.auth.access_token }
    injections:
      - ${injection}
    users: ${users}`;
}

test('basic preset: no request at sign-in, HTTP Basic on every request', async ({ demo }) => {
  demo.reset();
  const plan = planFromYaml(`
presets:
  - type: basic
    users: [{ username: carol, password: carol-password }]
`);
  const session = await authenticate(plan, 'carol', { redactor: new Redactor() });
  expect(demo.counters.endpoints).toEqual({});
  expect(await whoami(demo.url, session)).toEqual({ status: 200, user: 'carol', via: 'basic', role: 'viewer' });
});

test('headers preset: the static header identifies the user', async ({ demo }) => {
  const plan = planFromYaml(`
presets:
  - type: headers
    users: [{ username: bob, headers: { X-Api-Key: ak-bob-52d0a8b4 } }]
`);
  const session = await authenticate(plan, 'bob', { redactor: new Redactor() });
  expect(session.headers).toEqual({ 'X-Api-Key': ['ak-bob-52d0a8b4'] });
  expect(await whoami(demo.url, session)).toEqual({ status: 200, user: 'bob', via: 'header', role: 'viewer' });
});

for (const [location, injection, post] of [
  ['header', '{ location: header, key: Authorization, prefix: Bearer, variable: access_token }', false],
  ['cookie', '{ location: cookie, key: token, variable: access_token }', false],
  ['query', '{ location: query, key: access_token, variable: access_token }', false],
  ['body', '{ location: body, key: access_token, variable: access_token }', true],
] as const) {
  test(`http preset, injection into the ${location}: /whoami recognises each user by its ${location}`, async ({ demo }) => {
    const plan = planFromYaml(`presets:${tokenPreset(demo.url, injection)}`);
    for (const [user, role] of [['alice', 'admin'], ['bob', 'viewer']] as const) {
      const session = await authenticate(plan, user, { redactor: new Redactor() });
      expect(await whoami(demo.url, session, { post })).toEqual({ status: 200, user, via: location, role });
    }
  });
}

test('generic procedure: form login follows the redirect with its cookie, extracts cookie and query', async ({ demo }) => {
  demo.reset();
  const plan = planFromYaml(`
procedures:
  - name: form-login
    operations:
      - tech: http
        parameters:
          url: ${demo.url}/auth/form-login
          method: POST
          headers: [{ name: Content-Type, values: [application/x-www-form-urlencoded] }]
          body: "username={{username}}&password={{password}}"
        extractions:
          - { name: sid, location: cookie, key: sid }
          - { name: code, location: query, key: code }
          - { name: signed_in, location: body, key: signedIn }
    injections:
      - { location: cookie, key: sid, variable: sid }
users:
  - name: alice
    procedure: form-login
    credentials: { username: alice, password: alice-password }
`);
  const session = await authenticate(plan, 'alice', { redactor: new Redactor() });
  expect(session.variables.signed_in).toBe('true');
  expect(session.variables.code).toMatch(/^code_[0-9a-f]{32}$/);
  expect(session.cookies.filter((c) => c.name === 'sid').map((c) => c.value)).toEqual([session.variables.sid]);
  expect(demo.counters.endpoints).toEqual({ 'POST /auth/form-login': 1, 'GET /auth/done': 1 });
  expect(await whoami(demo.url, session)).toEqual({ status: 200, user: 'alice', via: 'cookie', role: 'admin' });
});

test('generic procedure: credentials in the query, token from a header into the body of later requests', async ({ demo }) => {
  const plan = planFromYaml(`
procedures:
  - name: query-then-body
    operations:
      - tech: http
        parameters:
          url: ${demo.url}/auth/query-login
          method: POST
          queryParameters:
            - { name: username, values: ["{{username}}"] }
            - { name: password, values: ["{{password}}"] }
        extractions: [{ name: first, location: body, key: access_token }]
      - tech: http
        parameters:
          url: ${demo.url}/auth/body-login
          method: POST
          body: { user: "{{username}}", pass: "{{password}}" }
        extractions: [{ name: second, location: header, key: x-auth-token }]
    injections:
      - { location: body, key: access_token, variable: second }
users:
  - name: bob
    procedure: query-then-body
    variables: [{ name: username, value: bob }, { name: password, value: bob-password }]
`);
  const session = await authenticate(plan, 'bob', { redactor: new Redactor() });
  expect(session.variables.first).not.toBe(session.variables.second);
  expect(session.body.set).toEqual({ access_token: session.variables.second });
  expect(await whoami(demo.url, session, { post: true })).toEqual({ status: 200, user: 'bob', via: 'body', role: 'viewer' });
});

test('a wrong password fails with AUTH_HTTP_STATUS, and the echoed password is masked', async ({ demo }) => {
  const plan = planFromYaml(`presets:${tokenPreset(
    demo.url,
    '{ location: header, key: Authorization, prefix: Bearer }',
    '[{ username: alice, password: Wrong-Pa55word }]',
  )}`);
  const error = await authenticate(plan, 'alice', { redactor: new Redactor() }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MultiAuthError);
  const failure = error as MultiAuthError;
  expect(failure.code).toBe('AUTH_HTTP_STATUS');
  expect(failure.context).toMatchObject({ user: 'alice', procedure: 'preset[0]:http', step: 0, method: 'POST', url: `${demo.url}/auth/token`, status: 401 });
  const text = failure.render();
  expect(text).toContain(`"received":{"username":"alice","password":"${MASK}"}`);
  expect(text).not.toContain('Wrong-Pa55word');
  expect(JSON.stringify({ message: failure.message, details: failure.details, context: failure.context })).not.toContain('Wrong-Pa55word');
});

test('an unknown user fails with USER_UNKNOWN and a suggestion', async () => {
  const plan = planFromYaml(`
presets:
  - type: basic
    users: [{ username: alice, password: alice-password }]
`);
  const error = await authenticate(plan, 'alcie', { redactor: new Redactor() }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MultiAuthError);
  expect((error as MultiAuthError).code).toBe('USER_UNKNOWN');
  expect((error as MultiAuthError).message).toBe('no user named "alcie" (did you mean "alice"?)');
});

test('a server that is down fails with AUTH_NETWORK naming the user and step', async ({ demo }) => {
  const plan = planFromYaml(`presets:${tokenPreset('http://127.0.0.1:1', '{ location: header, key: Authorization, prefix: Bearer }')}`);
  void demo;
  const error = (await authenticate(plan, 'alice', { redactor: new Redactor() }).catch((e: unknown) => e)) as MultiAuthError;
  expect(error.code).toBe('AUTH_NETWORK');
  expect(error.message).toBe('request failed: ECONNREFUSED after 3 attempts');
  expect(error.context).toMatchObject({ user: 'alice', procedure: 'preset[0]:http', step: 0, stepKind: 'http', method: 'POST' });
});

test('the top-level lifetime times a session whose sign-in says nothing of its expiry', async ({ demo }) => {
  const plan = planFromYaml(`
lifetime: 600
procedures:
${formLoginProcedure(demo.url)}users:
  - { name: bob, procedure: form-login, credentials: { username: bob, password: bob-password } }
`);
  const session = await authenticate(plan, 'bob', { redactor: new Redactor() });
  expect(session.expiresAt).toBe(session.createdAt + 600_000);
  expect(await whoami(demo.url, session)).toMatchObject({ status: 200, user: 'bob', via: 'cookie' });
});

test('a preset user\'s refresh.sessionSeconds times its session over what its token says', async ({ demo }) => {
  const plan = planFromYaml(`
presets:${tokenPreset(demo.url, '{ location: header, key: Authorization, prefix: Bearer, variable: access_token }', '[{ username: alice, password: alice-password, refresh: { sessionSeconds: 120 } }]')}
`);
  const session = await authenticate(plan, 'alice', { redactor: new Redactor() });
  expect(session.expiresAt).toBe(session.createdAt + 120_000);
  expect(await whoami(demo.url, session)).toMatchObject({ status: 200, user: 'alice' });
});
