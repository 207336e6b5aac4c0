import { MultiAuthError } from '../../src/core/errors.js';
import { Redactor } from '../../src/core/redactor.js';
import { authenticate, refreshSession } from '../../src/runtime/engine/authenticate.js';
import { test, expect } from '../support/demo.js';
import { planFromYaml } from '../support/plan.js';
import { whoami } from '../support/whoami.js';

/** An hour ago: `createdAt` + expires_in is then earlier than the JWT's real `exp`. */
const NOW = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
const clock = () => NOW;

function jwtExp(token: string): number {
  return (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp: number }).exp;
}

/**
 * Users of the demo's token endpoint: `login` returns access and refresh tokens (lifetime `ttl`),
 * injects the access token as a Bearer header and the refresh token as a cookie `rt`; `renew`
 * trades `{{refresh_token}}` (a variable of the session being refreshed) for a new access token
 * and injects only the header.
 */
function tokenConfig(url: string, opts: { ttl: number; extractExpiresIn: boolean; refresh: string }): string {
  return `
procedures:
  - name: login
    operations:
      - tech: http
        parameters:
          url: ${url}/auth/token?ttl=${opts.ttl}
          method: POST
          body: { username: "{{username}}", password: "{{password}}" }
        extractions:
          - { name: access_token, location: body, key: data.auth.access_token }
          - { name: refresh_token, location: body, key: data.auth.refresh_token }
${opts.extractExpiresIn ? '          - { name: expires_in, location: body, key: data.auth.expires_in }' : ''}
    injections:
      - { location: header, key: Authorization, prefix: Bearer, variable: access_token }
      - { location: cookie, key: rt, variable: refresh_token }
  - name: renew
    operations:
      - tech: http
        parameters:
          url: ${url}/auth/refresh?ttl=${opts.ttl}
          method: POST
          body: { refresh_token: "{{refresh_token}}" }
        extractions:
          - { name: access_token, location: body, key: data.auth.access_token }
          - { name: refresh_token, location: body, key: data.auth.refresh_token }
    injections:
      - { location: header, key: Authorization, prefix: Bearer, variable: access_token }
users:
  - name: alice
    procedure: login
    credentials: { username: alice, password: alice-password }
    refresh: ${opts.refresh}
`;
}

test('sessionSeconds sets the expiry, whatever the token says', async ({ demo }) => {
  const plan = planFromYaml(tokenConfig(demo.url, { ttl: 600, extractExpiresIn: true, refresh: '{ sessionSeconds: 90, keep: false }' }));
  const session = await authenticate(plan, 'alice', { redactor: new Redactor(), now: clock });
  expect(session.createdAt).toBe(NOW);
  expect(session.expiresAt).toBe(NOW + 90_000);
});

test('an extracted expires_in sets the expiry when it is the earliest', async ({ demo }) => {
  const plan = planFromYaml(tokenConfig(demo.url, { ttl: 120, extractExpiresIn: true, refresh: '{ keep: false }' }));
  const session = await authenticate(plan, 'alice', { redactor: new Redactor(), now: clock });
  expect(session.variables.expires_in).toBe('120');
  expect(session.expiresAt).toBe(NOW + 120_000);
});

test('without expires_in, the exp claim of the extracted JWT sets the expiry', async ({ demo }) => {
  const plan = planFromYaml(tokenConfig(demo.url, { ttl: 300, extractExpiresIn: false, refresh: '{ keep: false }' }));
  const before = Math.floor(Date.now() / 1000);
  const session = await authenticate(plan, 'alice', { redactor: new Redactor() });
  const exp = jwtExp(session.variables.access_token ?? '');
  expect(exp).toBeGreaterThanOrEqual(before + 300);
  expect(exp).toBeLessThanOrEqual(before + 302);
  expect(session.expiresAt).toBe(exp * 1000);
});

test('refresh runs its own procedure with {{refresh_token}} from the session; keep: false drops what it did not renew', async ({ demo }) => {
  demo.reset();
  const plan = planFromYaml(tokenConfig(demo.url, { ttl: 60, extractExpiresIn: true, refresh: '{ procedure: renew, keep: false }' }));
  const redactor = new Redactor();
  const session = await authenticate(plan, 'alice', { redactor });
  expect(session.cookies.map((c) => c.name)).toEqual(['rt']);
  const refreshed = await refreshSession(plan, session, { redactor });
  expect(demo.counters.endpoints).toEqual({ 'POST /auth/token': 1, 'POST /auth/refresh': 1 });
  expect(refreshed.origin).toBe('refreshed');
  expect(refreshed.variables.access_token).not.toBe(session.variables.access_token);
  expect(refreshed.variables.refresh_token).not.toBe(session.variables.refresh_token);
  expect(refreshed.headers).toEqual({ Authorization: [`Bearer ${refreshed.variables.access_token}`] });
  expect(refreshed.cookies).toEqual([]);
  expect(await whoami(demo.url, refreshed)).toEqual({ status: 200, user: 'alice', via: 'header', role: 'admin' });
  // The server's refresh tokens work once: a second refresh must use the renewed one.
  const again = await refreshSession(plan, refreshed, { redactor });
  expect(demo.counters.endpoints['POST /auth/refresh']).toBe(2);
  expect(again.variables.access_token).not.toBe(refreshed.variables.access_token);
});

test('keep: true lays the renewed injections over the old session, keeping the rest', async ({ demo }) => {
  const plan = planFromYaml(tokenConfig(demo.url, { ttl: 60, extractExpiresIn: true, refresh: '{ procedure: renew, keep: true }' }));
  const redactor = new Redactor();
  const session = await authenticate(plan, 'alice', { redactor });
  const refreshed = await refreshSession(plan, session, { redactor });
  expect(refreshed.headers).toEqual({ Authorization: [`Bearer ${refreshed.variables.access_token}`] });
  expect(refreshed.headers.Authorization).not.toEqual(session.headers.Authorization);
  expect(refreshed.cookies.map((c) => [c.name, c.value])).toEqual([['rt', session.variables.refresh_token]]);
  expect(refreshed.origin).toBe('refreshed');
});

test('a refused refresh (the server forgot its refresh tokens) signs a generic user in again, once, keeping nothing of the dead session', async ({ demo }) => {
  const plan = planFromYaml(tokenConfig(demo.url, { ttl: 60, extractExpiresIn: true, refresh: '{ procedure: renew, keep: true }' }));
  const redactor = new Redactor();
  const session = await authenticate(plan, 'alice', { redactor });
  demo.reset();
  const renewed = await refreshSession(plan, session, { redactor });
  expect(demo.counters.endpoints).toEqual({ 'POST /auth/refresh': 1, 'POST /auth/token': 1 });
  expect(renewed.origin).toBe('signed-in');
  expect(renewed.variables.refresh_token).not.toBe(session.variables.refresh_token);
  expect(renewed.cookies.map((c) => [c.name, c.value])).toEqual([['rt', renewed.variables.refresh_token]]);
  expect(await whoami(demo.url, renewed)).toMatchObject({ status: 200, user: 'alice' });
});

test('a refresh missing its variable signs in again too', async ({ demo }) => {
  const plan = planFromYaml(tokenConfig(demo.url, { ttl: 60, extractExpiresIn: true, refresh: '{ procedure: renew, keep: false }' }));
  const redactor = new Redactor();
  const session = await authenticate(plan, 'alice', { redactor });
  demo.reset();
  const renewed = await refreshSession(plan, { ...session, variables: { username: 'alice' } }, { redactor });
  expect(demo.counters.endpoints).toEqual({ 'POST /auth/token': 1 });
  expect(await whoami(demo.url, renewed)).toMatchObject({ status: 200, user: 'alice' });
});

test('a refused refresh whose sign-in fails too: the sign-in\'s error, saying the refresh failed first, no token shown', async ({ demo }) => {
  const config = tokenConfig(demo.url, { ttl: 60, extractExpiresIn: true, refresh: '{ procedure: renew, keep: false }' });
  const redactor = new Redactor();
  const session = await authenticate(planFromYaml(config), 'alice', { redactor });
  demo.reset();
  const changed = planFromYaml(config.replace('password: alice-password', 'password: not-alice-password'));
  const error = (await refreshSession(changed, session, { redactor }).catch((e: unknown) => e)) as MultiAuthError;
  expect(error).toBeInstanceOf(MultiAuthError);
  expect(error.code).toBe('AUTH_HTTP_STATUS');
  expect(error.context).toMatchObject({ user: 'alice', procedure: 'login', status: 401 });
  expect(error.details).toContain('This sign-in replaced a refresh that failed first: AUTH_HTTP_STATUS (HTTP 401) in procedure "renew", step 1.');
  expect(demo.counters.endpoints).toEqual({ 'POST /auth/refresh': 1, 'POST /auth/token': 1 });
  expect(error.render()).not.toContain(session.variables.refresh_token ?? '(missing)');
  expect(error.render()).not.toContain('not-alice-password');
});

test('refresh variables and credentials replace the user\'s for the refresh run', async ({ demo }) => {
  demo.reset();
  const plan = planFromYaml(`
procedures:
  - name: login
    operations:
      - tech: http
        parameters:
          url: ${demo.url}/auth/token
          method: POST
          body: { username: "{{who}}", password: "{{password}}" }
        extractions: [{ name: access_token, location: body, key: data.auth.access_token }]
    injections:
      - { location: header, key: Authorization, prefix: Bearer }
users:
  - name: alice
    procedure: login
    credentials: { username: alice, password: alice-password }
    variables: [{ name: who, value: alice }]
    refresh:
      keep: false
      variables: [{ name: who, value: carol }]
      credentials: { username: carol, password: carol-password }
`);
  const redactor = new Redactor();
  const session = await authenticate(plan, 'alice', { redactor });
  expect(await whoami(demo.url, session)).toMatchObject({ user: 'alice' });
  const refreshed = await refreshSession(plan, session, { redactor });
  expect(await whoami(demo.url, refreshed)).toMatchObject({ user: 'carol', via: 'header' });
  expect(demo.counters.signIns).toEqual({ alice: 1, carol: 1 });
});
