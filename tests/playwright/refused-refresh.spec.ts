import { test, expect } from '@playwright/test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startDemoServer, type DemoServer } from '../../fixtures/demo-server/index.js';
import { runInlineProject } from '../support/inline-project.js';

// Issue 24, item 1, through the fixtures: a generic user refreshed by its own procedure, whose
// refresh tokens the server revokes mid-run ("log out everywhere"). Before, every later test of
// the user failed with the refresh's HTTP 401, in that run and every later one.

test.describe.configure({ timeout: 240_000 });

let demo: DemoServer;
test.beforeAll(async () => {
  demo = await startDemoServer();
});
test.afterAll(async () => demo?.stop());

test('a generic user whose refresh token was revoked server-side recovers in the same run with one sign-in; the next run passes', async () => {
  // 12 s tokens: refreshed when less than a quarter of their lifetime (3 s) remains.
  const operation = (path: string, body: string) => `
      - tech: http
        parameters: { url: ${demo.url}${path}?ttl=12, method: POST, body: ${body} }
        extractions:
          - { name: access_token, location: body, key: data.auth.access_token }
          - { name: refresh_token, location: body, key: data.auth.refresh_token }
          - { name: expires_in, location: body, key: data.auth.expires_in }
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: access_token }]`;
  const files = {
    'multiauth.yaml': `
procedures:
  - name: login
    operations:${operation('/auth/token', '{ username: "{{username}}", password: "{{password}}" }')}
  - name: x-refresh
    operations:${operation('/auth/refresh', '{ refresh_token: "{{refresh_token}}" }')}
users:
  - name: alice
    procedure: login
    credentials: { username: alice, password: alice-password }
    refresh: { procedure: x-refresh, keep: false }
`,
    'revoked.spec.ts': `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'alice' });
test('logged out everywhere, then past the refresh time', async ({ authedRequest }) => {
  expect((await authedRequest.get('${demo.url}/whoami')).status()).toBe(200);
  if (process.env.REVOKE) {
    expect(await (await authedRequest.post('${demo.url}/auth/logout-all')).json()).toEqual({ ended: 1 });
    await new Promise((r) => setTimeout(r, 9_500));
    const me = await authedRequest.get('${demo.url}/whoami');
    expect(me.status()).toBe(200);
    expect((await me.json()).user).toBe('alice');
  }
});
`,
  };
  demo.reset();
  const first = await runInlineProject(files, { env: { REVOKE: '1' }, args: ['--workers=1'] });
  expect(first.passed, first.output).toBe(1);
  expect(demo.counters.endpoints).toMatchObject({ 'POST /auth/token': 2, 'POST /auth/refresh': 1, 'POST /auth/logout-all': 1 });
  expect(readdirSync(join(first.dir, '.auth')).filter((name) => name.endsWith('.failed'))).toEqual([]);

  // The next run: the session of the sign-in has expired by now, and its refresh token works.
  const second = await runInlineProject(files, { dir: first.dir, args: ['--workers=1'] });
  expect(second.passed, second.output).toBe(1);
  expect(demo.counters.endpoints['POST /auth/token']).toBe(2);
});
