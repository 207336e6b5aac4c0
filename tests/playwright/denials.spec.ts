import { test, expect } from '@playwright/test';
import { startDemoServer, type DemoServer } from '../../fixtures/demo-server/index.js';
import { runInlineProject, scenarioProjectsConfig, testsByProject, type InlineResult, type ReportedTest } from '../support/inline-project.js';
import { formLoginProcedure } from '../support/config-texts.js';
import { startBrowserServer, type BrowserServer } from '../support/browser-server.js';

// Issue 24, item 3: a denial is not a dead session. In a role matrix, the demo's /ends/settings
// answers the viewer dave 401 with a working session (as Node-RED does), by GET and by POST, from
// authedRequest and from a page, in every test. That must not sign dave in again in every test,
// nor at all in a second run that has his session cached. Without a validation, the last GET
// the session got a 2xx answer for is sent again to tell a denial from a dead session.
//
// Each scenario is a project of one child run, with its own config, cache and demo server (so its
// sign-ins are counted apart and /__end-sessions ends only its own sessions); a project's tests run
// in one worker, in order, as the separate runs of `--workers=1` did (one file a project, not fully
// parallel: two workers run two scenarios side by side, never one scenario's tests apart). The
// scenarios with a cached second run share a second child run. Every worker of both runs connects
// to one chromium this file starts, rather than launching its own (nine launches). The tests
// below each read their scenario's part of the two runs.

test.describe.configure({ mode: 'default', timeout: 300_000 });

const config = (url: string, extra: string) => `${extra}
procedures:
${formLoginProcedure(url)}users:
  - name: alice
    procedure: form-login
    credentials: { username: alice, password: alice-password }
  - name: dave
    procedure: form-login
    credentials: { username: dave, password: dave-password }
`;

/** The role matrix of the scenario `name`; `first` is a request each test makes before the settings (a GET of the app). */
const matrixSpec = (name: string, first = '') => `
import { test, expect, authUsers } from 'playwright-multiauth';
for (const user of authUsers({ config: '${name}/multiauth.yaml' })) {
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

const endSessions = (url: string) => `
async function endSessions(playwright) {
  const admin = await playwright.request.newContext();
  await admin.post('${url}/__end-sessions');
  await admin.dispose();
}`;

interface Scenario {
  /** Its config validates sessions at GET /whoami. */
  validation: boolean;
  spec: (name: string, url: string) => string;
  /** Run again, from the first run's cache. */
  cached: boolean;
}

const SCENARIOS = {
  validated: { validation: true, cached: true, spec: (name) => matrixSpec(name) },
  answered: { validation: false, cached: true, spec: (name) => matrixSpec(name, `expect((await authedRequest.get('/whoami')).status()).toBe(200);`) },
  unanswered: { validation: false, cached: true, spec: (name) => matrixSpec(name) },
  posts: {
    validation: false,
    cached: false,
    spec: () => `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'dave' });
for (const n of [1, 2, 3]) {
  test('post ' + n, async ({ authedRequest }) => {
    expect((await authedRequest.post('/ends/settings', { data: {} })).status()).toBe(401);
  });
}
`,
  },
  ended: {
    validation: true,
    cached: false,
    spec: (_name, url) => `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'dave' });
${endSessions(url)}
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
  },
  answeredEnded: {
    validation: false,
    cached: false,
    spec: (_name, url) => `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'dave' });
${endSessions(url)}
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
  },
} satisfies Record<string, Scenario>;
type Name = keyof typeof SCENARIOS;
const NAMES = Object.keys(SCENARIOS) as Name[];
const CACHED = NAMES.filter((name) => SCENARIOS[name].cached);

/** What one child run did for each scenario: its tests, and the sign-ins its demo server counted in that run. */
interface Runs {
  first: InlineResult;
  second: InlineResult;
  tests: { first: Record<string, ReportedTest[]>; second: Record<string, ReportedTest[]> };
  signIns: { first: Record<Name, Record<string, number>>; second: Record<Name, Record<string, number>> };
}

const servers = {} as Record<Name, DemoServer>;
let browser: BrowserServer | undefined;
let runs: Runs;

test.beforeAll(async () => {
  // The two child runs of the whole file: a hook's timeout is the config's unless set here.
  test.setTimeout(600_000);
  for (const name of NAMES) servers[name] = await startDemoServer();
  browser = await startBrowserServer();
  const files: Record<string, string> = {
    'playwright.config.ts': scenarioProjectsConfig(NAMES.map((name) => ({ name, url: servers[name].url })), browser.useText),
  };
  for (const name of NAMES) {
    const { url } = servers[name];
    files[`${name}/multiauth.yaml`] = config(url, SCENARIOS[name].validation ? `validation: { url: "${url}/whoami" }` : '');
    files[`${name}/${name}.spec.ts`] = SCENARIOS[name].spec(name, url);
  }
  const first = await runInlineProject(files);
  const afterFirst = Object.fromEntries(NAMES.map((name) => [name, servers[name].counters.signIns])) as Runs['signIns']['first'];
  const second = await runInlineProject(files, { dir: first.dir, args: [...CACHED.map((name) => `--project=${name}`)] });
  const afterSecond = Object.fromEntries(NAMES.map((name) => [name, since(servers[name].counters.signIns, afterFirst[name])])) as Runs['signIns']['second'];
  runs = { first, second, tests: { first: testsByProject(first.report), second: testsByProject(second.report) }, signIns: { first: afterFirst, second: afterSecond } };
});

test.afterAll(async () => {
  await Promise.all([...Object.values(servers).map((server) => server.stop()), browser?.stop()]);
});

/** Sign-ins per user since `before`. */
function since(now: Record<string, number>, before: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(now).map(([user, count]) => [user, count - (before[user] ?? 0)]).filter(([, count]) => count !== 0));
}

/** The scenario's tests in a run, after checking that all `count` of them passed. */
function passed(run: 'first' | 'second', name: Name, count: number): ReportedTest[] {
  const tests = runs.tests[run][name] ?? [];
  expect(tests.map((t) => `${t.title}: ${t.status}`), runs[run].output.slice(-4000)).toEqual(tests.map((t) => `${t.title}: expected`));
  expect(tests).toHaveLength(count);
  return tests;
}

function notes(tests: ReportedTest[]): string[] {
  return tests.flatMap((t) => t.annotations).map((a) => a.description ?? '');
}

function annotationsOf(tests: ReportedTest[], title: string): string {
  return JSON.stringify(tests.find((t) => t.title === title)?.annotations);
}

test('the child runs: every scenario side by side in a first run, the cached ones again in a second', () => {
  expect(runs.first.exitCode, runs.first.output.slice(-4000)).toBe(0);
  expect(runs.first.output).toMatch(/26 passed/);
  expect(Object.keys(runs.tests.first).sort()).toEqual([...NAMES].sort());
  expect(runs.second.exitCode, runs.second.output.slice(-4000)).toBe(0);
  expect(runs.second.output).toMatch(/18 passed/);
  expect(Object.keys(runs.tests.second).sort()).toEqual([...CACHED].sort());
});

test('with a validation: one sign-in per user in a first run, none in a cached second run', () => {
  const first = passed('first', 'validated', 6);
  expect(runs.signIns.first.validated).toEqual({ alice: 1, dave: 1 });
  // The validation kept dave's session at his first GET and his first POST; then they were known.
  expect(notes(first).filter((n) => /dave: kept the session, which passed its validation, after HTTP 401 from (GET|POST) /.test(n))).toHaveLength(2);
  expect(notes(first).filter((n) => n.includes('again'))).toEqual([]);

  const second = passed('second', 'validated', 6);
  expect(runs.signIns.second.validated).toEqual({});
  expect(notes(second).filter((n) => /again|kept/.test(n))).toEqual([]);
});

test('without a validation: a GET the session got answered shows it alive: one sign-in per user in a first run, none in a cached second run', () => {
  const first = passed('first', 'answered', 6);
  expect(runs.signIns.first.answered).toEqual({ alice: 1, dave: 1 });
  // GET /whoami answered dave's session again at his first GET and his first POST of the
  // settings; then they were known (the page's GET of the same path too).
  const said = notes(first);
  expect(said.filter((n) => /^dave: kept the session: GET \/whoami still answers 2xx with it, so HTTP 401 from (GET|POST) http:\/\/127\.0\.0\.1:\d+\/ends\/settings was a denial/.test(n))).toHaveLength(2);
  expect(said.filter((n) => n.includes('again'))).toEqual([]);

  const second = passed('second', 'answered', 6);
  expect(runs.signIns.second.answered).toEqual({});
  expect(notes(second).filter((n) => /again|kept/.test(n))).toEqual([]);
});

test('without a validation, denied before any GET was answered: the denials are learnt by signing in again, then no sign-in for them, in this run or the next', () => {
  const first = passed('first', 'unanswered', 6);
  // alice: her sign-in. dave: his, and one re-sign-in whose retried GET got the same 401 (a
  // denial: the page's GET of the same path is known too). His POST, refused right after with
  // the new session, had no GET answered by it to check with; the next test's POST had the
  // first test's GET /whoami, which still answers 2xx: a denial, learnt without a sign-in.
  expect(runs.signIns.first.unanswered).toEqual({ alice: 1, dave: 2 });
  const said = notes(first);
  expect(said.filter((n) => /dave: signed in again after HTTP 401/.test(n))).toHaveLength(1);
  expect(said.filter((n) => /dave: the new session got HTTP 401 from GET http:\/\/127\.0\.0\.1:\d+\/ends\/settings too: a denial/.test(n))).toHaveLength(1);
  expect(said.filter((n) => /^dave: kept the session: GET \/whoami still answers 2xx with it, so HTTP 401 from POST http:\/\/127\.0\.0\.1:\d+\/ends\/settings was a denial/.test(n))).toHaveLength(1);

  const second = passed('second', 'unanswered', 6);
  expect(runs.signIns.second.unanswered).toEqual({});
  expect(notes(second).filter((n) => /again/.test(n))).toEqual([]);
});

test('without a validation and no GET answered, a POST that signed in again is proved a denial by the next session it refuses', () => {
  const tests = passed('first', 'posts', 3);
  expect(runs.signIns.first.posts).toEqual({ dave: 2 });
  const said = notes(tests);
  expect(said.filter((n) => /dave: signed in again after HTTP 401 from POST/.test(n))).toHaveLength(1);
  expect(said.filter((n) => /dave: a session signed in again after HTTP 401 from POST http:\/\/127\.0\.0\.1:\d+\/ends\/settings got it too: a denial/.test(n))).toHaveLength(1);
});

test('a remembered denial leaves the rest alone: a session that really ended is still renewed', () => {
  const tests = passed('first', 'ended', 2);
  // dave's sign-in, and one in each test after the server ended his session.
  expect(runs.signIns.first.ended).toEqual({ dave: 3 });
  for (const title of ['denied, then ended', 'page denied, then ended']) {
    expect(annotationsOf(tests, title)).toMatch(/dave: signed in again after HTTP 401 from GET http:\/\/127\.0\.0\.1:\d+\/whoami/);
  }
});

test('without a validation, the GET that showed the session alive never keeps one that really ended', () => {
  const tests = passed('first', 'answeredEnded', 3);
  expect(runs.signIns.first.answeredEnded).toEqual({ dave: 4 });
  expect(notes(tests).filter((n) => n.includes('kept'))).toEqual([]);
  expect(annotationsOf(tests, 'answered, then ended')).toMatch(/dave: signed in again after HTTP 401 from POST http:\/\/127\.0\.0\.1:\d+\/ends\/settings/);
  for (const title of ['answered through no redirect, then ended', 'a public page answered, then ended']) {
    expect(annotationsOf(tests, title)).toMatch(/dave: signed in again after HTTP 401 from GET http:\/\/127\.0\.0\.1:\d+\/whoami/);
  }
});
