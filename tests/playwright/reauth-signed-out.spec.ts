import { test, expect } from './support.js';
import { runInlineProject } from '../support/inline-project.js';
import { formLoginProcedure } from '../support/config-texts.js';

test.describe.configure({ timeout: 240_000 });

// Issue 24, item 2: apps that end a session without a 401. The demo's /ends/redirect/* answers a
// dead cookie session with a 302 to its login page (Django, Rails, Spring), /ends/forbidden/*
// with 403 (Jupyter, WordPress's REST API). With `reauth` saying so, the session is renewed
// mid-test, in authedRequest (the GET sent again) and in a page (navigated again to the URL it
// asked for), and the annotation says what triggered it.

const config = (reauth: string) => `${reauth}
procedures:
${formLoginProcedure('${DEMO_URL}')}users:
  - name: dave
    procedure: form-login
    credentials: { username: dave, password: dave-password }
`;

const SPEC = `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'dave' });
async function endSessions(playwright) {
  const admin = await playwright.request.newContext();
  await admin.post(process.env.DEMO_URL + '/__end-sessions');
  await admin.dispose();
}
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

test('a session ended with a 302 to the login page or a 403 is renewed mid-test, in authedRequest and in a page', async ({ demo, demoEnv }) => {
  const result = await runInlineProject(
    { 'multiauth.yaml': config('reauth: { on_status: [401, 403], on_redirect: "/ends/login" }'), 'a.spec.ts': SPEC },
    { env: demoEnv, args: ['--workers=1'] },
  );
  expect(result.output).toMatch(/4 passed/);
  // The first sign-in, then one per test: each test ended the session once.
  expect(demo.counters.signIns).toEqual({ dave: 5 });
  const said = (title: string) => JSON.stringify(result.annotations[title]);
  for (const where of ['authedRequest', 'page']) {
    expect(said(`${where} redirect`)).toMatch(/dave: signed in again after a redirect to \/ends\/login from GET http:\/\/127\.0\.0\.1:\d+\/ends\/redirect\/whoami/);
    expect(said(`${where} forbidden`)).toMatch(/dave: signed in again after HTTP 403 from GET http:\/\/127\.0\.0\.1:\d+\/ends\/forbidden\/whoami/);
  }
});

// Without a rule for them, the same answers go to the test as they are, and nobody signs in again.
const CONTROL_SPEC = `
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

test("without a reauth rule for them, the 302 and the 403 are the test's to see", async ({ demo, demoEnv }) => {
  const result = await runInlineProject({ 'multiauth.yaml': config(''), 'a.spec.ts': CONTROL_SPEC }, { env: demoEnv, args: ['--workers=1'] });
  expect(result.output).toMatch(/1 passed/);
  expect(demo.counters.signIns).toEqual({ dave: 1 });
  expect(JSON.stringify(result.annotations['left alone'])).not.toContain('again');
});
