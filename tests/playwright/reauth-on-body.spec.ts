import { test, expect } from './support.js';
import { runInlineProject } from '../support/inline-project.js';
import { formLoginProcedure } from '../support/config-texts.js';

test.describe.configure({ timeout: 240_000 });

// Issue 35, item 1: apps that answer a dead session with a 200. The demo's /rpc is a JSON-RPC API
// whose session is carried in the request body (as Zabbix's), answering a dead one with 200
// {"error":{"data":"Session terminated, re-login, please."}}; /ends/ok/whoami answers a signed-out
// caller with a 200 page "You are not logged in". With `reauth.on_body`, the user signs in again,
// once, through authedRequest and through a page; the tests after that sign in nobody.

const RPC_PROCEDURE = `  - name: rpc-login
    operations:
      - tech: http
        parameters:
          url: \${DEMO_URL}/rpc
          method: POST
          headers: [{ name: Content-Type, values: [application/json-rpc] }]
          body: { jsonrpc: "2.0", method: user.login, params: { username: "{{username}}", password: "{{password}}" }, id: 1 }
        extractions:
          - { name: token, location: body, key: result }
    injections:
      - { location: body, key: auth, variable: token }
`;

const config = (reauth: string) => `${reauth}
procedures:
${formLoginProcedure('${DEMO_URL}')}${RPC_PROCEDURE}users:
  - name: dave
    procedure: form-login
    credentials: { username: dave, password: dave-password }
  - name: carol
    procedure: rpc-login
    credentials: { username: carol, password: carol-password }
    validation:
      url: \${DEMO_URL}/rpc
      method: POST
      headers: { Content-Type: application/json-rpc }
      body: { jsonrpc: "2.0", method: user.get, id: 1 }
      match: '"user":"carol"'
`;

const SPEC = `
import { test, expect } from 'playwright-multiauth';
async function endSessions(playwright) {
  const admin = await playwright.request.newContext();
  await admin.post(process.env.DEMO_URL + '/__end-sessions');
  await admin.dispose();
}
const call = (request) => request.post('/rpc', { data: { jsonrpc: '2.0', method: 'user.get', id: 7 } }).then((r) => r.json());
test.describe('carol', () => {
  test.use({ authUser: 'carol' });
  test('rpc revoked', async ({ authedRequest, playwright }) => {
    expect((await call(authedRequest)).result.user).toBe('carol');
    await endSessions(playwright);
    // A POST is not sent again (it may change data): it gets its answer, the next call the new session.
    expect((await call(authedRequest)).error.data).toBe('Session terminated, re-login, please.');
    expect((await call(authedRequest)).result.user).toBe('carol');
  });
  test('rpc later', async ({ authedRequest }) => {
    expect((await call(authedRequest)).result.user).toBe('carol');
  });
});
test.describe('dave', () => {
  test.use({ authUser: 'dave' });
  test('page revoked', async ({ page, playwright }) => {
    await page.goto('/ends/ok/whoami');
    await expect(page.locator('body')).toContainText('"user":"dave"');
    await endSessions(playwright);
    await page.goto('/ends/ok/whoami');
    await expect(page.locator('body')).toContainText('"user":"dave"');
  });
  test('authedRequest revoked', async ({ authedRequest, playwright }) => {
    expect((await (await authedRequest.get('/ends/ok/whoami')).json()).user).toBe('dave');
    await endSessions(playwright);
    const again = await authedRequest.get('/ends/ok/whoami');
    expect(again.status()).toBe(200);
    expect((await again.json()).user).toBe('dave');
  });
  test('later', async ({ authedRequest, page }) => {
    expect((await (await authedRequest.get('/ends/ok/whoami')).json()).user).toBe('dave');
    await page.goto('/ends/ok/whoami');
    await expect(page.locator('body')).toContainText('"user":"dave"');
  });
});
`;

test('a session ended with a 200 that says so (on_body) is signed in again once, through authedRequest and a page', async ({ demo, demoEnv }) => {
  const result = await runInlineProject(
    { 'multiauth.yaml': config('reauth: { on_body: "You are not logged in|Session terminated" }'), 'a.spec.ts': SPEC },
    { env: demoEnv, args: ['--workers=1'] },
  );
  expect(result.output).toMatch(/5 passed/);
  // carol: the first sign-in, then one after her session ended; dave: the first, then one per test that ended it.
  expect(demo.counters.signIns).toEqual({ carol: 2, dave: 3 });
  const said = (title: string) => JSON.stringify(result.annotations[title]);
  expect(said('rpc revoked')).toMatch(/carol: signed in again after HTTP 200 whose body matches on_body \\"You are not logged in\|Session terminated\\" from POST http:\/\/127\.0\.0\.1:\d+\/rpc/);
  expect(said('page revoked')).toMatch(/dave: signed in again after HTTP 200 whose body matches on_body .* from GET http:\/\/127\.0\.0\.1:\d+\/ends\/ok\/whoami/);
  expect(said('authedRequest revoked')).toMatch(/dave: signed in again after HTTP 200 whose body matches on_body/);
  for (const title of ['rpc later', 'later']) expect(said(title) ?? '').not.toContain('again');
});

// Without on_body, the same 200s go to the test as they are, and nobody signs in again.
const CONTROL_SPEC = `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'dave' });
test('left alone', async ({ authedRequest, page, playwright }) => {
  expect((await (await authedRequest.get('/ends/ok/whoami')).json()).user).toBe('dave');
  const admin = await playwright.request.newContext();
  await admin.post(process.env.DEMO_URL + '/__end-sessions');
  await admin.dispose();
  expect(await (await authedRequest.get('/ends/ok/whoami')).text()).toContain('You are not logged in');
  await page.goto('/ends/ok/whoami');
  await expect(page.locator('body')).toContainText('You are not logged in');
});
`;

test('without on_body, a 200 that says "not logged in" is the test\'s to see', async ({ demo, demoEnv }) => {
  const result = await runInlineProject({ 'multiauth.yaml': config(''), 'a.spec.ts': CONTROL_SPEC }, { env: demoEnv, args: ['--workers=1'] });
  expect(result.output).toMatch(/1 passed/);
  expect(demo.counters.signIns).toEqual({ dave: 1 });
});
