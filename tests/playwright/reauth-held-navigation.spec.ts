import { test, expect } from './support.js';
import { runInlineProject } from '../support/inline-project.js';
import { formLoginProcedure } from '../support/config-texts.js';
import { startHttpServer } from '../support/servers/node-http.js';

test.describe.configure({ timeout: 240_000 });

// Issue 35, item 7: with `reauth.on_redirect`, a navigation whose answer is the redirect to the
// login page ends signed in at the page it asked for, not on the login page with a reload to
// come: `page.url()`, the response `goto` returns and the page read at once are the page's.
// The demo's /ends/redirect/page answers a dead cookie session with a 302 to /ends/login.

const REAUTH = 'reauth: { on_status: [401], on_redirect: "/ends/login" }';

const config = (signIn: string) => `${REAUTH}
procedures:
${signIn}users:
  - name: dave
    procedure: form-login
    credentials: { username: dave, password: dave-password }
`;

const SPEC = `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'dave' });
const PAGE = process.env.DEMO_URL + '/ends/redirect/page';
async function endSessions(playwright) {
  const admin = await playwright.request.newContext();
  await admin.post(process.env.DEMO_URL + '/__end-sessions');
  await admin.dispose();
}
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

test('a navigation that met the login page resolves signed in at the page it asked for: goto, reload, a click', async ({ demo, demoEnv }) => {
  const result = await runInlineProject({ 'multiauth.yaml': config(formLoginProcedure('${DEMO_URL}')), 'a.spec.ts': SPEC }, { env: demoEnv, args: ['--workers=1'] });
  expect(result.output).toMatch(/3 passed/);
  // The first sign-in, then one per test: each test ended the session once.
  expect(demo.counters.signIns).toEqual({ dave: 4 });
  for (const title of ['goto', 'reload', 'click']) {
    expect(JSON.stringify(result.annotations[title])).toMatch(/dave: signed in again after a redirect to \/ends\/login from GET http:\/\/127\.0\.0\.1:\d+\/ends\/redirect\/page/);
  }
});

// The re-sign-in fails (the gate its first step asks refuses from the second time on): the
// navigation ends on the login page at once, as the app answered, and the test fails with the
// sign-in's error, said once; nobody tries to sign in again.
const FAILING_SPEC = `
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

const gatedSignIn = (gate: string) => `  - name: form-login
    operations:
      - tech: http
        parameters: { url: ${gate}/gate, method: GET }
${formLoginProcedure('${DEMO_URL}').split('\n').slice(2).join('\n')}`;

test('when the re-sign-in fails, the navigation ends on the login page at once, and the test fails with the error once', async ({ demo, demoEnv }) => {
  let opened = 0;
  const gate = await startHttpServer((_req, res) => {
    opened++;
    res.writeHead(opened === 1 ? 200 : 403, { 'content-type': 'text/plain' }).end(opened === 1 ? 'open' : 'closed');
  });
  try {
    const result = await runInlineProject({ 'multiauth.yaml': config(gatedSignIn(gate.url)), 'a.spec.ts': FAILING_SPEC }, { env: demoEnv, args: ['--workers=1'] });
    expect(result.failed).toBe(1);
    // The first sign-in and one attempt to sign in again.
    expect(opened).toBe(2);
    expect(demo.counters.signIns).toEqual({ dave: 1 });
    const said = /navigation took (\d+) ms, ended at (\S+), (\S+)/.exec(result.output);
    expect(said?.slice(2)).toEqual(['/ends/login', '/ends/login']);
    expect(Number(said?.[1])).toBeLessThan(10_000);
    const errors = result.report.suites.flatMap((s) => s.specs).flatMap((s) => s.tests).flatMap((t) => t.results).flatMap((r) => r.errors).map((e) => e.message ?? '');
    expect(errors.filter((e) => e.includes('[AUTH_HTTP_STATUS]'))).toHaveLength(1);
    expect(errors.join('\n')).toMatch(/while signing in user "dave", procedure "form-login", step 1 \(http\), GET http:\/\/127\.0\.0\.1:\d+\/gate, HTTP 403/);
  } finally {
    await gate.close();
  }
});
