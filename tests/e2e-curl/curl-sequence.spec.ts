import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { MultiAuthError } from '../../src/core/errors.js';
import { MASK, Redactor } from '../../src/core/redactor.js';
import { authenticate } from '../../src/runtime/engine/authenticate.js';
import { planFromYaml } from '../support/plan.js';
import { whoami } from '../support/whoami.js';
import { test, expect } from '../support/demo.js';

/**
 * The `curl_sequence` preset end to end: each request is templated with the user's variables and
 * everything extracted before it; `/whoami` through `applySession` says whom the server sees.
 */

/** Signs in at the demo's CSRF-guarded login: GET a token (and its cookie), then POST it back. */
function csrfSequence(base: string, users: string): string {
  return `
presets:
  - type: curl_sequence
    requests:
      - curl: curl -sS '{{base}}/auth/csrf'
        extractions:
          - { name: csrf, location: body, key: csrf }
      - curl: >-
          curl '{{base}}/auth/csrf-login'
          -H 'X-CSRF-Token: {{csrf}}'
          --data-urlencode 'username={{login}}'
          --data-urlencode 'password={{password}}'
        extractions:
          - { name: access_token, location: body, key: access_token }
    injections:
      - { location: header, key: Authorization, prefix: Bearer, variable: access_token }
    users: ${users.replaceAll('BASE', base)}
`;
}

test('two steps: the CSRF token extracted by the first is sent by the second, with the user\'s variables', async ({ demo }) => {
  demo.clear();
  const plan = planFromYaml(csrfSequence(demo.url, `
      - username: alice
        variables: { base: BASE, login: alice, password: alice-password }
      - username: bob
        variables: [{ name: base, value: BASE }, { name: login, value: bob }, { name: password, value: bob-password }]`));
  for (const [user, role] of [['alice', 'admin'], ['bob', 'viewer']] as const) {
    const session = await authenticate(plan, user, { redactor: new Redactor() });
    expect(session.variables.csrf).toMatch(/^[0-9a-f]{24}\.[\w-]{43}$/);
    expect(session.headers).toEqual({ Authorization: [`Bearer ${session.variables.access_token}`] });
    expect(await whoami(demo.url, session)).toEqual({ status: 200, user, via: 'header', role });
  }
  expect(demo.counters.signIns).toEqual({ alice: 1, bob: 1 });
  expect(demo.counters.endpoints).toMatchObject({ 'GET /auth/csrf': 2, 'POST /auth/csrf-login': 2 });
});

test('two steps: a token read from a cookie of step 1 is posted as a form field; the session cookie of step 2 is injected', async ({ demo }) => {
  demo.clear();
  const plan = planFromYaml(`
presets:
  - type: curl_sequence
    requests:
      - curl: curl '{{base}}/auth/csrf'
        extractions:
          - { name: csrf, location: cookie, key: csrftoken }
      - curl: curl '{{base}}/auth/csrf-login' -d 'username={{login}}&password={{password}}&csrf={{csrf}}'
        extractions:
          - { name: sid, location: cookie, key: sid }
    injections:
      - { location: cookie, key: sid, variable: sid }
    users:
      - username: carol
        variables: { base: ${demo.url}, login: carol, password: carol-password }
`);
  const session = await authenticate(plan, 'carol', { redactor: new Redactor() });
  expect(session.variables.sid).toMatch(/^sid_[0-9a-f]{32}$/);
  expect(await whoami(demo.url, session)).toEqual({ status: 200, user: 'carol', via: 'cookie', role: 'viewer' });
});

test('the second step really depends on the first: a token that did not come from step 1 is refused', async ({ demo }) => {
  demo.clear();
  const plan = planFromYaml(`
presets:
  - type: curl_sequence
    requests:
      - curl: curl '{{base}}/auth/csrf'
        extractions:
          - { name: csrf, location: body, key: csrf }
      - curl: curl '{{base}}/auth/csrf-login' -d 'username={{login}}&password={{password}}&csrf={{forged}}'
    users:
      - username: alice
        variables: { base: ${demo.url}, login: alice, password: alice-password, forged: 0123.abc }
`);
  const error = (await authenticate(plan, 'alice', { redactor: new Redactor() }).catch((e: unknown) => e)) as MultiAuthError;
  expect(error).toBeInstanceOf(MultiAuthError);
  expect(error.code).toBe('AUTH_HTTP_STATUS');
  expect(error.context).toMatchObject({ step: 1, status: 403 });
  expect(demo.counters.signIns).toEqual({});
});

test('per-user headers and cookies reach the server in every step and in authenticated requests', async ({ demo }) => {
  demo.clear();
  const plan = planFromYaml(csrfSequence(`${demo.url}/rec`, `
      - username: bob
        headers: { X-Tenant: globex }
        cookies: { locale: de-DE }
        variables: { base: BASE, login: bob, password: bob-password }`));
  const session = await authenticate(plan, 'bob', { redactor: new Redactor() });
  expect(await whoami(`${demo.url}/rec`, session)).toEqual({ status: 200, user: 'bob', via: 'header', role: 'viewer' });

  expect(demo.seen.map((s) => `${s.method} ${s.path}`)).toEqual(['GET /auth/csrf', 'POST /auth/csrf-login', 'GET /whoami']);
  const [first, second, authed] = demo.seen;
  expect(first?.headers).toMatchObject({ 'x-tenant': 'globex', cookie: 'locale=de-DE' });
  // Step 2 also carries the csrftoken cookie the jar kept from step 1.
  expect(second?.headers).toMatchObject({ 'x-tenant': 'globex', 'x-csrf-token': session.variables.csrf });
  expect(second?.headers.cookie?.split('; ').sort()).toEqual([`csrftoken=${session.variables.csrf}`, 'locale=de-DE']);
  expect(authed?.headers).toMatchObject({ 'x-tenant': 'globex', authorization: `Bearer ${session.variables.access_token}` });
  expect(authed?.headers.cookie).toContain('locale=de-DE');
});

test('a templated -u {{login}}:{{password}} reaches the server as HTTP Basic', async ({ demo }) => {
  demo.clear();
  const plan = planFromYaml(`
presets:
  - type: curl_sequence
    requests:
      - curl: curl -u '{{login}}:{{password}}' '{{base}}/rec/whoami'
        extractions:
          - { name: seen_user, location: body, key: user }
          - { name: seen_via, location: body, key: via }
      - curl: >-
          curl '{{base}}/auth/token' --json '{"username":"{{seen_user}}","password":"{{password}}"}'
        extractions:
          - { name: access_token, location: body, key: data.auth.access_token }
    injections:
      - { location: header, key: Authorization, prefix: Bearer, variable: access_token }
    users:
      - username: alice
        variables: { base: ${demo.url}, login: alice, password: alice-password }
`);
  const session = await authenticate(plan, 'alice', { redactor: new Redactor() });
  expect(demo.seen.map((s) => s.headers.authorization)).toEqual([`Basic ${Buffer.from('alice:alice-password').toString('base64')}`]);
  expect(session.variables).toMatchObject({ seen_user: 'alice', seen_via: 'basic' });
  expect(await whoami(demo.url, session)).toEqual({ status: 200, user: 'alice', via: 'header', role: 'admin' });
});

test('a failing step names its index and its curl command, redacted', async ({ demo }) => {
  demo.clear();
  const password = 'Wrong-Pa55word';
  const plan = planFromYaml(`
presets:
  - type: curl_sequence
    requests:
      - curl: curl '{{base}}/auth/csrf'
        extractions:
          - { name: csrf, location: body, key: csrf }
      - curl: >-
          curl '{{base}}/auth/csrf-login' -H 'X-CSRF-Token: {{csrf}}'
          -d 'username=alice&password=${password}'
    users:
      - username: alice
        variables: { base: ${demo.url} }
`);
  const error = (await authenticate(plan, 'alice', { redactor: new Redactor() }).catch((e: unknown) => e)) as MultiAuthError;
  expect(error).toBeInstanceOf(MultiAuthError);
  expect(error.code).toBe('AUTH_HTTP_STATUS');
  expect(error.path).toEqual(['presets', 0, 'requests', 1, 'curl']);
  expect(error.context).toMatchObject({ user: 'alice', procedure: 'preset[0]:curl_sequence', step: 1, stepKind: 'curl', status: 401 });
  const text = error.render();
  expect(text).toMatch(/^presets\[0\]\.requests\[1\]\.curl: /);
  expect(text).toContain('while signing in user "alice", procedure "preset[0]:curl_sequence", step 2 (curl), POST ');
  expect(text).toContain(`  curl command: curl '{{base}}/auth/csrf-login' -H 'X-CSRF-Token: {{csrf}}' -d 'username=alice&password=${MASK}'\n`);
  // The server echoes the password it received; that is masked too.
  expect(text).toContain(`"password":"${MASK}"`);
  expect(text).not.toContain(password);
  expect(JSON.stringify({ message: error.message, details: error.details, context: error.context, hint: error.hint })).not.toContain(password);
});

test('a failing step with a templated password shows the template, and the value nowhere', async ({ demo }) => {
  const password = 'Not-Alices-Pa55';
  const plan = planFromYaml(csrfSequence(demo.url, `
      - username: alice
        variables: { base: BASE, login: alice, password: ${password} }`));
  const error = (await authenticate(plan, 'alice', { redactor: new Redactor() }).catch((e: unknown) => e)) as MultiAuthError;
  expect(error.code).toBe('AUTH_HTTP_STATUS');
  const text = error.render();
  expect(text).toContain("curl command: curl '{{base}}/auth/csrf-login' -H 'X-CSRF-Token: {{csrf}}' --data-urlencode 'username={{login}}' --data-urlencode 'password={{password}}'");
  expect(text).toContain('step 2 (curl)');
  expect(text).not.toContain(password);
});

test.describe('a {{variable}} URL is checked after templating', () => {
  let tcp: Server;
  let connections = 0;
  test.beforeAll(async () => {
    tcp = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  });
  test.afterAll(() => new Promise<void>((resolve) => tcp.close(() => resolve())));

  const port = () => (tcp.address() as AddressInfo).port;
  const cases: Array<[string, () => string, string, string]> = [
    ['file:///etc/passwd', () => 'file:///etc/passwd', "'{{url}}'", 'file://'],
    ['gopher://', () => `gopher://127.0.0.1:${port()}/_POST%20/auth/token`, "'{{url}}'", 'gopher://'],
    ['a gopher:// base', () => `gopher://127.0.0.1:${port()}`, "'{{url}}/auth/token' -d 'a=1'", 'gopher://'],
    ['a file: base (no //)', () => 'file:/etc', "'{{url}}/passwd'", 'file://'],
  ];
  for (const [name, url, written, scheme] of cases) {
    test(`${name} is refused with CURL_FORBIDDEN and nothing is sent`, async ({ demo }) => {
      demo.clear();
      connections = 0;
      const plan = planFromYaml(`
presets:
  - type: curl_sequence
    requests:
      - curl: curl -sS '${demo.url}/auth/csrf'
      - curl: curl ${written}
        extractions: [{ name: body, location: body, key: x }]
    users:
      - username: alice
        variables: { url: "${url()}" }
`);
      const error = (await authenticate(plan, 'alice', { redactor: new Redactor() }).catch((e: unknown) => e)) as MultiAuthError;
      expect(error).toBeInstanceOf(MultiAuthError);
      expect(error.code).toBe('CURL_FORBIDDEN');
      expect(error.message).toContain(`\`${scheme}\``);
      expect(error.context).toMatchObject({ user: 'alice', step: 1, stepKind: 'curl' });
      expect(error.render()).toContain(`curl command: curl ${written}`);
      expect(error.render()).not.toContain('root:');
      // Step 1 was sent; step 2 never left the process.
      expect(demo.counters.endpoints).toEqual({ 'GET /auth/csrf': 1 });
      expect(connections).toBe(0);
    });
  }
});
