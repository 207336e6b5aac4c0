import { Redactor } from '../../src/core/redactor.js';
import { authenticate } from '../../src/runtime/engine/authenticate.js';
import { planFromYaml } from '../support/plan.js';
import { whoami } from '../support/whoami.js';
import { test, expect } from '../support/demo.js';

/**
 * The `curl` preset end to end: loadConfig -> compile -> authenticate against the demo server,
 * then `/whoami` through `applySession` says which user the server sees, and where it found the
 * credential.
 */

test('header token from the JSON body, injected as Authorization: Bearer', async ({ demo }) => {
  demo.clear();
  const plan = planFromYaml(`
presets:
  - type: curl
    extractions:
      - { name: token, location: body, key: token }
    injections:
      - { location: header, key: Authorization, prefix: Bearer, variable: token }
    users:
      - username: alice
        curl: >-
          curl '${demo.url}/auth/body-login'
          -H 'Content-Type: application/json'
          --data-raw '{"user":"alice","pass":"alice-password"}'
      - username: bob
        curl: curl -sS -d 'user=bob&pass=bob-password' ${demo.url}/auth/body-login
`);
  for (const [user, role] of [['alice', 'admin'], ['bob', 'viewer']] as const) {
    const session = await authenticate(plan, user, { redactor: new Redactor() });
    expect(session.headers).toEqual({ Authorization: [`Bearer ${session.variables.token}`] });
    expect(session.variables.token).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(await whoami(demo.url, session)).toEqual({ status: 200, user, via: 'header', role });
  }
  expect(demo.counters.signIns).toEqual({ alice: 1, bob: 1 });
  expect(demo.counters.endpoints).toEqual({ 'POST /auth/body-login': 2, '* /whoami': 2 });
});

test('header token from a response header, injected with a Bearer prefix', async ({ demo }) => {
  const plan = planFromYaml(`
presets:
  - type: curl
    extractions:
      - { name: token, location: header, key: x-auth-token }
    injections:
      - { location: header, key: Authorization, prefix: Bearer, variable: token }
    users:
      - username: carol
        curl: >-
          curl -X POST '${demo.url}/auth/body-login'
          -H 'Content-Type: application/x-www-form-urlencoded'
          -d 'user=carol' -d 'pass=carol-password'
`);
  const session = await authenticate(plan, 'carol', { redactor: new Redactor() });
  expect(session.headers.Authorization?.[0]).toMatch(/^Bearer eyJ/);
  expect(await whoami(demo.url, session)).toEqual({ status: 200, user: 'carol', via: 'header', role: 'viewer' });
});

test('a Set-Cookie session captured with a regex and injected as a cookie', async ({ demo }) => {
  demo.clear();
  // Without -L curl does not follow the 302: the Set-Cookie is read from the login response itself.
  const plan = planFromYaml(`
presets:
  - type: curl
    extractions:
      - { name: session, location: header, key: Set-Cookie, regex: "sid=([^;]+)" }
    injections:
      - { location: cookie, key: sid, variable: session }
    users:
      - username: bob
        curl: >-
          curl '${demo.url}/auth/form-login'
          -H 'Content-Type: application/x-www-form-urlencoded'
          --data-raw 'username=bob&password=bob-password'
`);
  const session = await authenticate(plan, 'bob', { redactor: new Redactor() });
  expect(session.variables.session).toMatch(/^sid_[0-9a-f]{32}$/);
  // The injection replaced the cookie the jar kept: one `sid`, the regex's capture, no attributes.
  expect(session.cookies.filter((c) => c.name === 'sid')).toEqual([{ name: 'sid', value: session.variables.session }]);
  expect(demo.counters.endpoints).toEqual({ 'POST /auth/form-login': 1 });
  expect(await whoami(demo.url, session)).toEqual({ status: 200, user: 'bob', via: 'cookie', role: 'viewer' });

  const forged = { ...session, cookies: [{ name: 'sid', value: 'sid_00000000000000000000000000000000' }] };
  expect(await whoami(demo.url, forged)).toMatchObject({ status: 401 });
});

test('per-user headers and cookies reach the server during sign-in and in authenticated requests', async ({ demo }) => {
  demo.clear();
  const plan = planFromYaml(`
presets:
  - type: curl
    extractions:
      - { name: token, location: body, key: token }
    injections:
      - { location: header, key: Authorization, prefix: Bearer, variable: token }
    users:
      - username: alice
        headers: { X-Tenant: acme, X-Trace: alice-trace }
        cookies: { locale: fr-FR }
        curl: >-
          curl '${demo.url}/rec/auth/body-login' -b 'theme=dark' -H 'x-tenant: from-the-command'
          -H 'Content-Type: application/json' --data-raw '{"user":"alice","pass":"alice-password"}'
`);
  const session = await authenticate(plan, 'alice', { redactor: new Redactor() });
  expect(await whoami(`${demo.url}/rec`, session)).toEqual({ status: 200, user: 'alice', via: 'header', role: 'admin' });

  expect(demo.seen.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /auth/body-login', 'GET /whoami']);
  const [signIn, authed] = demo.seen;
  // The user's header replaces the command's header of the same name; cookies join the command's.
  expect(signIn?.headers).toMatchObject({ 'x-tenant': 'acme', 'x-trace': 'alice-trace', cookie: 'theme=dark; locale=fr-FR' });
  expect(signIn?.headers.authorization).toBeUndefined();
  expect(authed?.headers).toMatchObject({ 'x-tenant': 'acme', 'x-trace': 'alice-trace', cookie: 'locale=fr-FR' });
  expect(authed?.headers.authorization).toBe(`Bearer ${session.variables.token}`);
});
