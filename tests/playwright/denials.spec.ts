import { test, expect } from './support.js';
import { runInlineProject } from '../support/inline-project.js';
import { formLoginProcedure } from '../support/config-texts.js';

test.describe.configure({ timeout: 300_000 });

// Issue 24, item 3: a denial is not a dead session. In a role matrix, the demo's /ends/settings
// answers the viewer dave 401 with a working session (as Node-RED does), by GET and by POST, from
// authedRequest and from a page, in every test. That must not sign dave in again in every test,
// nor at all in a second run that has his session cached. Without a validation, the last GET
// the session got a 2xx answer for is sent again to tell a denial from a dead session.

const config = (extra: string) => `${extra}
procedures:
${formLoginProcedure('${DEMO_URL}')}users:
  - name: alice
    procedure: form-login
    credentials: { username: alice, password: alice-password }
  - name: dave
    procedure: form-login
    credentials: { username: dave, password: dave-password }
`;

/** The role matrix; `first` is a request each test makes before the settings (a GET of the app). */
const spec = (first = '') => `
import { test, expect, authUsers } from 'playwright-multiauth';
for (const user of authUsers()) {
  test.describe(user, () => {
    test.use({ authUser: user });
    for (const n of [1, 2, 3]) {
      test(user + ' settings ' + n, async ({ authedRequest, page }) => {
        ${first}
        const expected = user === 'alice' ? 200 : 401;
        expect((await authedRequest.get('/ends/settings')).status()).toBe(expected);
        expect((await authedRequest.post('/ends/settings', { data: {} })).status()).toBe(expected);
        expect((await page.goto('/ends/settings'))!.status()).toBe(expected);
        // The session still works: whatever was decided about the denials kept dave signed in.
        expect((await (await authedRequest.get('/whoami')).json()).user).toBe(user);
      });
    }
  });
}
`;
const SPEC = spec();

/** Sign-ins per user since `before`. */
function since(now: Record<string, number>, before: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(now).map(([user, count]) => [user, count - (before[user] ?? 0)]).filter(([, count]) => count !== 0));
}

function notes(result: { annotations: Record<string, Array<{ description?: string }>> }): string[] {
  return Object.values(result.annotations).flat().map((a) => a.description ?? '');
}

test('with a validation: one sign-in per user in a first run, none in a cached second run', async ({ demo, demoEnv }) => {
  const files = { 'multiauth.yaml': config('validation: { url: "${DEMO_URL}/whoami" }'), 'a.spec.ts': SPEC };
  const first = await runInlineProject(files, { env: demoEnv, args: ['--workers=1'] });
  expect(first.output).toMatch(/6 passed/);
  expect(demo.counters.signIns).toEqual({ alice: 1, dave: 1 });
  // The validation kept dave's session at his first GET and his first POST; then they were known.
  expect(notes(first).filter((n) => /dave: kept the session, which passed its validation, after HTTP 401 from (GET|POST) /.test(n))).toHaveLength(2);
  expect(notes(first).filter((n) => n.includes('again'))).toEqual([]);

  const before = { ...demo.counters.signIns };
  const second = await runInlineProject(files, { env: demoEnv, args: ['--workers=1'], dir: first.dir });
  expect(second.output).toMatch(/6 passed/);
  expect(since(demo.counters.signIns, before)).toEqual({});
  expect(notes(second).filter((n) => /again|kept/.test(n))).toEqual([]);
});

test('without a validation: a GET the session got answered shows it alive: one sign-in per user in a first run, none in a cached second run', async ({ demo, demoEnv }) => {
  const files = { 'multiauth.yaml': config(''), 'a.spec.ts': spec(`expect((await authedRequest.get('/whoami')).status()).toBe(200);`) };
  const first = await runInlineProject(files, { env: demoEnv, args: ['--workers=1'] });
  expect(first.output).toMatch(/6 passed/);
  expect(demo.counters.signIns).toEqual({ alice: 1, dave: 1 });
  // GET /whoami answered dave's session again at his first GET and his first POST of the
  // settings; then they were known (the page's GET of the same path too).
  const said = notes(first);
  expect(said.filter((n) => /^dave: kept the session: GET \/whoami still answers 2xx with it, so HTTP 401 from (GET|POST) http:\/\/127\.0\.0\.1:\d+\/ends\/settings was a denial/.test(n))).toHaveLength(2);
  expect(said.filter((n) => n.includes('again'))).toEqual([]);

  const before = { ...demo.counters.signIns };
  const second = await runInlineProject(files, { env: demoEnv, args: ['--workers=1'], dir: first.dir });
  expect(second.output).toMatch(/6 passed/);
  expect(since(demo.counters.signIns, before)).toEqual({});
  expect(notes(second).filter((n) => /again|kept/.test(n))).toEqual([]);
});

test('without a validation, denied before any GET was answered: the denials are learnt by signing in again, then no sign-in for them, in this run or the next', async ({ demo, demoEnv }) => {
  const files = { 'multiauth.yaml': config(''), 'a.spec.ts': SPEC };
  const first = await runInlineProject(files, { env: demoEnv, args: ['--workers=1'] });
  expect(first.output).toMatch(/6 passed/);
  // alice: her sign-in. dave: his, and one re-sign-in whose retried GET got the same 401 (a
  // denial: the page's GET of the same path is known too). His POST, refused right after with
  // the new session, had no GET answered by it to check with; the next test's POST had the
  // first test's GET /whoami, which still answers 2xx: a denial, learnt without a sign-in.
  expect(demo.counters.signIns).toEqual({ alice: 1, dave: 2 });
  const said = notes(first);
  expect(said.filter((n) => /dave: signed in again after HTTP 401/.test(n))).toHaveLength(1);
  expect(said.filter((n) => /dave: the new session got HTTP 401 from GET http:\/\/127\.0\.0\.1:\d+\/ends\/settings too: a denial/.test(n))).toHaveLength(1);
  expect(said.filter((n) => /^dave: kept the session: GET \/whoami still answers 2xx with it, so HTTP 401 from POST http:\/\/127\.0\.0\.1:\d+\/ends\/settings was a denial/.test(n))).toHaveLength(1);

  const before = { ...demo.counters.signIns };
  const second = await runInlineProject(files, { env: demoEnv, args: ['--workers=1'], dir: first.dir });
  expect(second.output).toMatch(/6 passed/);
  expect(since(demo.counters.signIns, before)).toEqual({});
  expect(notes(second).filter((n) => /again/.test(n))).toEqual([]);
});

test('without a validation and no GET answered, a POST that signed in again is proved a denial by the next session it refuses', async ({ demo, demoEnv }) => {
  const files = {
    'multiauth.yaml': config(''),
    'a.spec.ts': `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'dave' });
for (const n of [1, 2, 3]) {
  test('post ' + n, async ({ authedRequest }) => {
    expect((await authedRequest.post('/ends/settings', { data: {} })).status()).toBe(401);
  });
}
`,
  };
  const result = await runInlineProject(files, { env: demoEnv, args: ['--workers=1'] });
  expect(result.output).toMatch(/3 passed/);
  expect(demo.counters.signIns).toEqual({ dave: 2 });
  const said = notes(result);
  expect(said.filter((n) => /dave: signed in again after HTTP 401 from POST/.test(n))).toHaveLength(1);
  expect(said.filter((n) => /dave: a session signed in again after HTTP 401 from POST http:\/\/127\.0\.0\.1:\d+\/ends\/settings got it too: a denial/.test(n))).toHaveLength(1);
});

test('a remembered denial leaves the rest alone: a session that really ended is still renewed', async ({ demo, demoEnv }) => {
  const files = {
    'multiauth.yaml': config('validation: { url: "${DEMO_URL}/whoami" }'),
    'a.spec.ts': `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'dave' });
async function endSessions(playwright) {
  const admin = await playwright.request.newContext();
  await admin.post(process.env.DEMO_URL + '/__end-sessions');
  await admin.dispose();
}
test('denied, then ended', async ({ authedRequest, playwright }) => {
  expect((await authedRequest.get('/ends/settings')).status()).toBe(401);
  await endSessions(playwright);
  const again = await authedRequest.get('/whoami');
  expect(again.status()).toBe(200);
  expect((await again.json()).user).toBe('dave');
});
test('page denied, then ended', async ({ page, playwright }) => {
  expect((await page.goto('/ends/settings'))!.status()).toBe(401);
  expect((await page.goto('/ends/settings?again=1'))!.status()).toBe(401);
  await endSessions(playwright);
  expect((await page.goto('/whoami'))!.status()).toBe(401);
  await expect(page.locator('body')).toContainText('"user":"dave"');
});
`,
  };
  const result = await runInlineProject(files, { env: demoEnv, args: ['--workers=1'] });
  expect(result.output).toMatch(/2 passed/);
  // dave's sign-in, and one in each test after the server ended his session.
  expect(demo.counters.signIns).toEqual({ dave: 3 });
  for (const title of ['denied, then ended', 'page denied, then ended']) {
    expect(JSON.stringify(result.annotations[title])).toMatch(/dave: signed in again after HTTP 401 from GET http:\/\/127\.0\.0\.1:\d+\/whoami/);
  }
});

test('without a validation, the GET that showed the session alive never keeps one that really ended', async ({ demo, demoEnv }) => {
  const files = {
    'multiauth.yaml': config(''),
    'a.spec.ts': `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'dave' });
async function endSessions(playwright) {
  const admin = await playwright.request.newContext();
  await admin.post(process.env.DEMO_URL + '/__end-sessions');
  await admin.dispose();
}
async function stillDave(authedRequest) {
  const again = await authedRequest.get('/whoami');
  expect(again.status()).toBe(200);
  expect((await again.json()).user).toBe('dave');
}
test('answered, then ended', async ({ authedRequest, playwright }) => {
  expect((await authedRequest.get('/whoami')).status()).toBe(200);
  await endSessions(playwright);
  // The POST is not sent again; the probe of GET /whoami (refused now) lets dave sign in again.
  expect((await authedRequest.post('/ends/settings', { data: {} })).status()).toBe(401);
  await stillDave(authedRequest);
});
test('answered through no redirect, then ended', async ({ authedRequest, playwright }) => {
  expect((await authedRequest.get('/ends/redirect/whoami')).status()).toBe(200);
  await endSessions(playwright);
  // Probed, that GET is a redirect to the login page now (which answers 200): not followed.
  await stillDave(authedRequest);
});
test('a public page answered, then ended', async ({ authedRequest, playwright }) => {
  expect((await authedRequest.get('/ends/login')).status()).toBe(200);
  await endSessions(playwright);
  // The login page answers anyone 200: it proves no session alive.
  await stillDave(authedRequest);
});
`,
  };
  const result = await runInlineProject(files, { env: demoEnv, args: ['--workers=1'] });
  expect(result.output).toMatch(/3 passed/);
  expect(demo.counters.signIns).toEqual({ dave: 4 });
  expect(notes(result).filter((n) => n.includes('kept'))).toEqual([]);
  expect(JSON.stringify(result.annotations['answered, then ended'])).toMatch(/dave: signed in again after HTTP 401 from POST http:\/\/127\.0\.0\.1:\d+\/ends\/settings/);
  for (const title of ['answered through no redirect, then ended', 'a public page answered, then ended']) {
    expect(JSON.stringify(result.annotations[title])).toMatch(/dave: signed in again after HTTP 401 from GET http:\/\/127\.0\.0\.1:\d+\/whoami/);
  }
});
