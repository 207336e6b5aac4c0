import { test, expect, MULTI_CONFIG } from './support.js';
import { runInlineProject } from '../support/inline-project.js';

test.describe.configure({ timeout: 180_000 });

// Issue 14, item 2: a session the server revoked mid-test. The next authedRequest call gets 401:
// the user signs in again once, the GET is sent again and passes, the test says so; a 403 (the
// role's answer) is returned as it is; `reauth: false` turns it off.

const SPEC = `
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

test('a 401 signs the user in again once and the GET is retried; a 403 is left alone', async ({ demo, demoEnv }) => {
  const result = await runInlineProject({ 'multiauth.yaml': MULTI_CONFIG, 'a.spec.ts': SPEC }, { env: demoEnv });
  expect(result.passed).toBe(1);
  // /__reset cleared the counters: what they show since is the one new sign-in.
  expect(demo.counters.signIns).toEqual({ dave: 1 });
  expect(demo.counters.endpoints['POST /auth/form-login']).toBe(1);
  expect(JSON.stringify(result.annotations['revoked mid-test'])).toMatch(/dave: signed in again after HTTP 401 from GET http:\/\/127\.0\.0\.1:\d+\/whoami/);
});

test('reauth: false returns the 401 to the test', async ({ demo, demoEnv }) => {
  const result = await runInlineProject({ 'multiauth.yaml': `reauth: false\n${MULTI_CONFIG}`, 'a.spec.ts': SPEC }, { env: demoEnv });
  expect(result.failed).toBe(1);
  expect(result.output).toMatch(/Expected: 200\s+Received: 401/);
  expect(demo.counters.signIns).toEqual({});
});

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

test('a 401 to a signed-in page signs the user in again once and loads the page again', async ({ demo, demoEnv }) => {
  const result = await runInlineProject({ 'multiauth.yaml': MULTI_CONFIG, 'a.spec.ts': PAGE_SPEC }, { env: demoEnv, args: ['--workers=1'] });
  expect(result.output).toMatch(/2 passed/);
  expect(result.passed).toBe(2);
  // Each test reset the counters, so the last one's re-sign-in is what they show.
  expect(demo.counters.signIns).toEqual({ alice: 1 });
  for (const user of ['dave', 'alice']) {
    expect(JSON.stringify(result.annotations[`page revoked mid-test as ${user}`])).toContain(`${user}: signed in again after HTTP 401 from GET http://127.0.0.1:`);
  }
});
