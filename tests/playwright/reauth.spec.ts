import { test, expect } from '@playwright/test';
import { startDemoServer, type DemoServer } from '../../fixtures/demo-server/index.js';
import { runInlineProject, scenarioProjectsConfig, testsByProject, type InlineResult, type ReportedTest } from '../support/inline-project.js';
import { formLoginProcedure } from '../support/config-texts.js';
import { startBrowserServer, type BrowserServer } from '../support/browser-server.js';
import { startHttpServer, type RunningServer } from '../support/servers/node-http.js';
import { MULTI_CONFIG } from './support.js';

// A session the server ended mid-test, and the user signed in again (or not) by `reauth`:
// issue 14, item 2 (a 401), issue 24, item 2 (a 302 to the login page, a 403), issue 35, item 1
// (a 200 that says so: `on_body`) and item 7 (a navigation held until the page is signed in).
//
// Each scenario is a project of one child run, with its own config and demo server (so its
// sign-ins are counted apart and /__reset or /__end-sessions ends only its own sessions); a
// project's tests run in one worker, in order, as the separate `--workers=1` runs they replace
// did (one file a project, not fully parallel). Every worker connects to one chromium this file
// starts rather than launching its own. The tests below each read their scenario's part.

test.describe.configure({ mode: 'default', timeout: 300_000 });

const multi = (url: string) => MULTI_CONFIG.replaceAll('${DEMO_URL}', url);
const dave = `users:
  - name: dave
    procedure: form-login
    credentials: { username: dave, password: dave-password }
`;

// --- issue 14: a 401 from a revoked session -------------------------------------------------

const REVOKED_SPEC = `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'dave' });
test('revoked mid-test', async ({ authedRequest, playwright }) => {
  expect((await (await authedRequest.get('/whoami')).json()).user).toBe('dave');
  // The server forgets every session it issued (dave's sid cookie among them).
  const admin = await playwright.request.newContext();
  await admin.post(process.env.DEMO_URL + '/__reset');
  await admin.dispose();
  const again = await authedRequest.get('/whoami');
  expect(again.status()).toBe(200);
  expect((await again.json()).user).toBe('dave');
  // A viewer may not delete: that 403 is the test's to see, not a reason to sign in again.
  expect((await authedRequest.delete('/admin/items/1')).status()).toBe(403);
});
`;

// The same for a signed-in page, with a cookie session (dave: form login) and a routed one
// (alice: a bearer header). The page's navigation that got the 401 is loaded again; its fetch
// after the renewal carries the new session; the re-sign-in happened once.
const PAGE_SPEC = `
import { test, expect } from 'playwright-multiauth';
for (const user of ['dave', 'alice']) {
  test.describe(user, () => {
    test.use({ authUser: user });
    test('page revoked mid-test as ' + user, async ({ page, playwright }) => {
      await page.goto('/whoami');
      await expect(page.locator('body')).toContainText('"user":"' + user + '"');
      const admin = await playwright.request.newContext();
      await admin.post(process.env.DEMO_URL + '/__reset');
      await admin.post(process.env.DEMO_URL + '/__rotate-keys');
      await admin.dispose();
      expect((await page.goto('/whoami'))!.status()).toBe(401);
      await expect(page.locator('body')).toContainText('"user":"' + user + '"');
      expect(await page.evaluate(() => fetch('/whoami').then((r) => r.status))).toBe(200);
      // dave is a viewer: his 403 is the test's, not a reason to sign in again.
      if (user === 'dave') expect(await page.evaluate(() => fetch('/admin/items/1', { method: 'DELETE' }).then((r) => r.status))).toBe(403);
    });
  });
}
`;

const END_SESSIONS = `
async function endSessions(playwright) {
  const admin = await playwright.request.newContext();
  await admin.post(process.env.DEMO_URL + '/__end-sessions');
  await admin.dispose();
}`;

// --- issue 24: a 302 to the login page, a 403 ------------------------------------------------
// The demo's /ends/redirect/* answers a dead cookie session with a 302 to its login page
// (Django, Rails, Spring), /ends/forbidden/* with 403 (Jupyter, WordPress's REST API).

const SIGNED_OUT_SPEC = `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'dave' });
${END_SESSIONS}
for (const kind of ['redirect', 'forbidden']) {
  const path = '/ends/' + kind + '/whoami';
  test('authedRequest ' + kind, async ({ authedRequest, playwright }) => {
    expect((await (await authedRequest.get(path)).json()).user).toBe('dave');
    await endSessions(playwright);
    const again = await authedRequest.get(path);
    expect(new URL(again.url()).pathname).toBe(path);
    expect(again.status()).toBe(200);
    expect((await again.json()).user).toBe('dave');
  });
  test('page ' + kind, async ({ page, playwright }) => {
    await page.goto(path);
    await expect(page.locator('body')).toContainText('"user":"dave"');
    await endSessions(playwright);
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(path + '$'));
    await expect(page.locator('body')).toContainText('"user":"dave"');
  });
}
`;

// Without a rule for them, the same answers go to the test as they are, and nobody signs in again.
const SIGNED_OUT_CONTROL_SPEC = `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'dave' });
test('left alone', async ({ authedRequest, page, playwright }) => {
  expect((await (await authedRequest.get('/ends/forbidden/whoami')).json()).user).toBe('dave');
  const admin = await playwright.request.newContext();
  await admin.post(process.env.DEMO_URL + '/__end-sessions');
  await admin.dispose();
  const redirected = await authedRequest.get('/ends/redirect/whoami');
  expect(new URL(redirected.url()).pathname).toBe('/ends/login');
  expect((await authedRequest.get('/ends/forbidden/whoami')).status()).toBe(403);
  await page.goto('/ends/redirect/whoami');
  await expect(page).toHaveURL(/\\/ends\\/login\\?next=/);
  expect((await page.goto('/ends/forbidden/whoami'))!.status()).toBe(403);
});
`;

// --- issue 35, item 1: a 200 that says the session ended (on_body) -----------------------------
// The demo's /rpc is a JSON-RPC API whose session is carried in the request body (as Zabbix's),
// answering a dead one with 200 {"error":{"data":"Session terminated, re-login, please."}};
// /ends/ok/whoami answers a signed-out caller with a 200 page "You are not logged in". The user
// signs in again, once, through authedRequest and through a page; the tests after that sign in nobody.

const rpcProcedure = (url: string) => `  - name: rpc-login
    operations:
      - tech: http
        parameters:
          url: ${url}/rpc
          method: POST
          headers: [{ name: Content-Type, values: [application/json-rpc] }]
          body: { jsonrpc: "2.0", method: user.login, params: { username: "{{username}}", password: "{{password}}" }, id: 1 }
        extractions:
          - { name: token, location: body, key: result }
    injections:
      - { location: body, key: auth, variable: token }
`;

const onBodyConfig = (url: string, reauth: string) => `${reauth}
procedures:
${formLoginProcedure(url)}${rpcProcedure(url)}${dave}  - name: carol
    procedure: rpc-login
    credentials: { username: carol, password: carol-password }
    validation:
      url: ${url}/rpc
      method: POST
      headers: { Content-Type: application/json-rpc }
      body: { jsonrpc: "2.0", method: user.get, id: 1 }
      match: '"user":"carol"'
`;

const ON_BODY_SPEC = `
import { test, expect } from 'playwright-multiauth';
${END_SESSIONS}
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

// Without on_body, the same 200s go to the test as they are, and nobody signs in again.
const ON_BODY_CONTROL_SPEC = `
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

// --- issue 35, item 7: a navigation held until signed in (on_redirect) -------------------------
// A navigation whose answer is the redirect to the login page ends signed in at the page it
// asked for, not on the login page with a reload to come: `page.url()`, the response `goto`
// returns and the page read at once are the page's. The demo's /ends/redirect/page answers a
// dead cookie session with a 302 to /ends/login.

const HELD_REAUTH = 'reauth: { on_status: [401], on_redirect: "/ends/login" }';

const HELD_SPEC = `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'dave' });
const PAGE = process.env.DEMO_URL + '/ends/redirect/page';
${END_SESSIONS}
async function signedIn(page, playwright) {
  await page.goto(PAGE);
  expect(await page.locator('#who').textContent()).toBe('dave');
  await endSessions(playwright);
}
// Read at once, no retrying assertion: what a test sees the moment its navigation resolves.
async function atOnce(page, response, url) {
  expect(page.url()).toBe(url);
  expect(response.url()).toBe(url);
  expect(response.status()).toBe(200);
  expect(await response.text()).toContain('<p id="who">dave</p>');
  expect(await page.evaluate(() => document.querySelector('#who')?.textContent)).toBe('dave');
}
test('goto', async ({ page, playwright }) => {
  await signedIn(page, playwright);
  const response = await page.goto(PAGE + '?n=5');
  await atOnce(page, response, PAGE + '?n=5');
});
test('reload', async ({ page, playwright }) => {
  await signedIn(page, playwright);
  const response = await page.reload();
  await atOnce(page, response, PAGE);
});
test('click', async ({ page, playwright }) => {
  await signedIn(page, playwright);
  const navigated = page.waitForEvent('framenavigated', (frame) => frame === page.mainFrame());
  const loaded = page.waitForResponse((r) => r.request().isNavigationRequest());
  await page.click('#next');
  expect((await navigated).url()).toBe(PAGE + '?n=1');
  await page.waitForLoadState('domcontentloaded');
  await atOnce(page, await loaded, PAGE + '?n=1');
});
`;

// The re-sign-in fails (the gate its first step asks refuses from the second time on): the
// navigation ends on the login page at once, as the app answered, and the test fails with the
// sign-in's error, said once; nobody tries to sign in again.
const HELD_FAILING_SPEC = `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'dave' });
test('sign-in fails', async ({ page, playwright }) => {
  const PAGE = process.env.DEMO_URL + '/ends/redirect/page';
  await page.goto(PAGE);
  expect(await page.locator('#who').textContent()).toBe('dave');
  const admin = await playwright.request.newContext();
  await admin.post(process.env.DEMO_URL + '/__end-sessions');
  await admin.dispose();
  const started = Date.now();
  const response = await page.goto(PAGE);
  console.log('navigation took ' + (Date.now() - started) + ' ms, ended at ' + new URL(page.url()).pathname + ', ' + new URL(response.url()).pathname);
});
`;

const gatedSignIn = (gate: string, url: string) => `  - name: form-login
    operations:
      - tech: http
        parameters: { url: ${gate}/gate, method: GET }
${formLoginProcedure(url).split('\n').slice(2).join('\n')}`;

// --- the scenarios, one child run ---------------------------------------------------------------

interface Scenario {
  config: (url: string) => string;
  spec: string;
}

let opened = 0;
let gate: RunningServer | undefined;

const SCENARIOS = {
  revoked: { config: multi, spec: REVOKED_SPEC },
  reauthOff: { config: (url) => `reauth: false\n${multi(url)}`, spec: REVOKED_SPEC },
  pages: { config: multi, spec: PAGE_SPEC },
  signedOut: { config: (url) => `reauth: { on_status: [401, 403], on_redirect: "/ends/login" }\nprocedures:\n${formLoginProcedure(url)}${dave}`, spec: SIGNED_OUT_SPEC },
  signedOutOff: { config: (url) => `procedures:\n${formLoginProcedure(url)}${dave}`, spec: SIGNED_OUT_CONTROL_SPEC },
  onBody: { config: (url) => onBodyConfig(url, 'reauth: { on_body: "You are not logged in|Session terminated" }'), spec: ON_BODY_SPEC },
  onBodyOff: { config: (url) => onBodyConfig(url, ''), spec: ON_BODY_CONTROL_SPEC },
  held: { config: (url) => `${HELD_REAUTH}\nprocedures:\n${formLoginProcedure(url)}${dave}`, spec: HELD_SPEC },
  heldFails: { config: (url) => `${HELD_REAUTH}\nprocedures:\n${gatedSignIn(gate!.url, url)}${dave}`, spec: HELD_FAILING_SPEC },
} satisfies Record<string, Scenario>;
type Name = keyof typeof SCENARIOS;
const NAMES = Object.keys(SCENARIOS) as Name[];

const servers = {} as Record<Name, DemoServer>;
let browser: BrowserServer | undefined;
let run: InlineResult;
let tests: Record<string, ReportedTest[]>;

test.beforeAll(async () => {
  // The one child run of the whole file: a hook's timeout is the config's unless set here.
  test.setTimeout(600_000);
  for (const name of NAMES) servers[name] = await startDemoServer();
  gate = await startHttpServer((_req, res) => {
    opened++;
    res.writeHead(opened === 1 ? 200 : 403, { 'content-type': 'text/plain' }).end(opened === 1 ? 'open' : 'closed');
  });
  browser = await startBrowserServer();
  const files: Record<string, string> = {
    'playwright.config.ts': scenarioProjectsConfig(NAMES.map((name) => ({ name, url: servers[name].url })), browser.useText),
  };
  for (const name of NAMES) {
    const { url } = servers[name];
    files[`${name}/multiauth.yaml`] = SCENARIOS[name].config(url);
    // Each project's demo is its own: the spec names it where it said process.env.DEMO_URL.
    files[`${name}/${name}.spec.ts`] = SCENARIOS[name].spec.replaceAll('process.env.DEMO_URL', JSON.stringify(url));
  }
  run = await runInlineProject(files);
  tests = testsByProject(run.report);
});

test.afterAll(async () => {
  await Promise.all([...Object.values(servers).map((server) => server.stop()), gate?.close(), browser?.stop()]);
});

/** The scenario's tests, after checking each ended as `statuses` says (by default all passed), in order. */
function ended(name: Name, statuses: string[]): ReportedTest[] {
  const mine = tests[name] ?? [];
  expect(mine.map((t) => `${t.title}: ${t.status}`), run.output.slice(-4000)).toEqual(mine.map((t, i) => `${t.title}: ${statuses[i]}`));
  expect(mine).toHaveLength(statuses.length);
  return mine;
}
const passed = (name: Name, count: number) => ended(name, Array<string>(count).fill('expected'));

/** The annotations of the scenario's test `title`, as JSON. */
function said(mine: ReportedTest[], title: string): string {
  return JSON.stringify(mine.find((t) => t.title === title)?.annotations);
}

test('a 401 signs the user in again once and the GET is retried; a 403 is left alone', () => {
  const mine = passed('revoked', 1);
  // /__reset cleared the counters: what they show since is the one new sign-in.
  expect(servers.revoked.counters.signIns).toEqual({ dave: 1 });
  expect(servers.revoked.counters.endpoints['POST /auth/form-login']).toBe(1);
  expect(said(mine, 'revoked mid-test')).toMatch(/dave: signed in again after HTTP 401 from GET http:\/\/127\.0\.0\.1:\d+\/whoami/);
});

test('reauth: false returns the 401 to the test', () => {
  const [only] = ended('reauthOff', ['unexpected']);
  expect(only!.errors.join('\n')).toMatch(/Expected: 200\s+Received: 401/);
  expect(servers.reauthOff.counters.signIns).toEqual({});
});

test('a 401 to a signed-in page signs the user in again once and loads the page again', () => {
  const mine = passed('pages', 2);
  // Each test reset the counters, so the last one's re-sign-in is what they show.
  expect(servers.pages.counters.signIns).toEqual({ alice: 1 });
  for (const user of ['dave', 'alice']) {
    expect(said(mine, `page revoked mid-test as ${user}`)).toContain(`${user}: signed in again after HTTP 401 from GET http://127.0.0.1:`);
  }
});

test('a session ended with a 302 to the login page or a 403 is renewed mid-test, in authedRequest and in a page', () => {
  const mine = passed('signedOut', 4);
  // The first sign-in, then one per test: each test ended the session once.
  expect(servers.signedOut.counters.signIns).toEqual({ dave: 5 });
  for (const where of ['authedRequest', 'page']) {
    expect(said(mine, `${where} redirect`)).toMatch(/dave: signed in again after a redirect to \/ends\/login from GET http:\/\/127\.0\.0\.1:\d+\/ends\/redirect\/whoami/);
    expect(said(mine, `${where} forbidden`)).toMatch(/dave: signed in again after HTTP 403 from GET http:\/\/127\.0\.0\.1:\d+\/ends\/forbidden\/whoami/);
  }
});

test("without a reauth rule for them, the 302 and the 403 are the test's to see", () => {
  const mine = passed('signedOutOff', 1);
  expect(servers.signedOutOff.counters.signIns).toEqual({ dave: 1 });
  expect(said(mine, 'left alone')).not.toContain('again');
});

test('a session ended with a 200 that says so (on_body) is signed in again once, through authedRequest and a page', () => {
  const mine = passed('onBody', 5);
  // carol: the first sign-in, then one after her session ended; dave: the first, then one per test that ended it.
  expect(servers.onBody.counters.signIns).toEqual({ carol: 2, dave: 3 });
  expect(said(mine, 'rpc revoked')).toMatch(/carol: signed in again after HTTP 200 whose body matches on_body \\"You are not logged in\|Session terminated\\" from POST http:\/\/127\.0\.0\.1:\d+\/rpc/);
  expect(said(mine, 'page revoked')).toMatch(/dave: signed in again after HTTP 200 whose body matches on_body .* from GET http:\/\/127\.0\.0\.1:\d+\/ends\/ok\/whoami/);
  expect(said(mine, 'authedRequest revoked')).toMatch(/dave: signed in again after HTTP 200 whose body matches on_body/);
  for (const title of ['rpc later', 'later']) expect(said(mine, title) ?? '').not.toContain('again');
});

test('without on_body, a 200 that says "not logged in" is the test\'s to see', () => {
  passed('onBodyOff', 1);
  expect(servers.onBodyOff.counters.signIns).toEqual({ dave: 1 });
});

test('a navigation that met the login page resolves signed in at the page it asked for: goto, reload, a click', () => {
  const mine = passed('held', 3);
  // The first sign-in, then one per test: each test ended the session once.
  expect(servers.held.counters.signIns).toEqual({ dave: 4 });
  for (const title of ['goto', 'reload', 'click']) {
    expect(said(mine, title)).toMatch(/dave: signed in again after a redirect to \/ends\/login from GET http:\/\/127\.0\.0\.1:\d+\/ends\/redirect\/page/);
  }
});

test('when the re-sign-in fails, the navigation ends on the login page at once, and the test fails with the error once', () => {
  const [only] = ended('heldFails', ['unexpected']);
  // The first sign-in and one attempt to sign in again.
  expect(opened).toBe(2);
  expect(servers.heldFails.counters.signIns).toEqual({ dave: 1 });
  const navigation = /navigation took (\d+) ms, ended at (\S+), (\S+)/.exec(run.output);
  expect(navigation?.slice(2)).toEqual(['/ends/login', '/ends/login']);
  expect(Number(navigation?.[1])).toBeLessThan(10_000);
  expect(only!.errors.filter((e) => e.includes('[AUTH_HTTP_STATUS]'))).toHaveLength(1);
  expect(only!.errors.join('\n')).toMatch(/while signing in user "dave", procedure "form-login", step 1 \(http\), GET http:\/\/127\.0\.0\.1:\d+\/gate, HTTP 403/);
});
