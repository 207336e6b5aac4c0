import { test, expect, MULTI_CONFIG } from './support.js';
import { inlineConfig, projectResults, readSteps, runInlineProject, STEPS_REPORTER, type InlineResult } from '../support/inline-project.js';
import { startDemoServer, type DemoServer } from '../../fixtures/demo-server/index.js';
import { startBrowserServer, type BrowserServer } from '../support/browser-server.js';

/** A spec per user that asserts, from inside the child run, what the demo server sees. */
function whoamiSpec(user: string, via: string): string {
  return `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: '${user}' });
test('${user} request', async ({ authedRequest }) => {
  const res = await authedRequest.post('/whoami', { data: { note: 'x' } });
  expect(await res.json()).toMatchObject({ user: '${user}', via: '${via}' });
});
test('${user} page', async ({ page }) => {
  await page.goto('/');
  const seen = await page.evaluate(async () => (await fetch('/whoami', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ note: 'x' }) })).json());
  expect(seen).toMatchObject({ user: '${user}', via: '${via}' });
});
`;
}

test.describe.configure({ mode: 'serial', timeout: 180_000 });

/**
 * The first child run, made by the first test to need it (in this file's worker, with its demo
 * server): project `main`, a spec per user against the worker's demo server; beside it project
 * `one`, with its own config, cache and demo server (so that its sign-in is counted apart): a
 * signed-out test and two tests of alice in one file, which one worker runs in order, so that the
 * second reuses the first's sign-in in that worker. Every worker of this file's child runs
 * connects to one chromium rather than launching its own.
 */
let firstRun: Promise<InlineResult> | undefined;
/** The child runs' playwright.config.ts (a run writes the default one unless given its own). */
let playwrightConfig = '';
let oneDemo: DemoServer | undefined;
let browser: BrowserServer | undefined;
function runFirst(demoEnv: Record<string, string>): Promise<InlineResult> {
  return (firstRun ??= (async () => {
    oneDemo = await startDemoServer();
    browser = await startBrowserServer();
    const projects = `projects: [
    { name: 'main', testDir: 'main', use: { authConfig: 'main/multiauth.yaml' } },
    { name: 'one', testDir: 'one', use: { authConfig: 'one/multiauth.yaml', baseURL: '${oneDemo.url}' } },
  ],`;
    return runInlineProject(
      {
        'playwright.config.ts': (playwrightConfig = inlineConfig(projects).replace('use: {', `use: { ${browser.useText}`).replace("['list']]", "['list'], ['./steps-reporter.ts']]")),
        'steps-reporter.ts': STEPS_REPORTER,
        'main/multiauth.yaml': MULTI_CONFIG,
        'main/alice.spec.ts': whoamiSpec('alice', 'header'),
        'main/bob.spec.ts': whoamiSpec('bob', 'query'),
        'main/carol.spec.ts': whoamiSpec('carol', 'body'),
        'main/dave.spec.ts': whoamiSpec('dave', 'cookie'),
        'one/multiauth.yaml': MULTI_CONFIG.replaceAll('${DEMO_URL}', oneDemo.url),
        'one/anon.spec.ts': `
import { test, expect } from 'playwright-multiauth';
test('anonymous', async ({ authedRequest, authSession, page }) => {
  expect(authSession).toBeUndefined();
  expect((await authedRequest.get('/whoami')).status()).toBe(401);
  await page.goto('/whoami');
  await expect(page.locator('body')).toContainText('no credentials');
});
`,
        'one/a.spec.ts': `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'alice' });
test('first', async ({ authedRequest }) => { expect((await authedRequest.get('/whoami')).ok()).toBe(true); });
test('second', async ({ authedRequest }) => { expect((await authedRequest.get('/whoami')).ok()).toBe(true); });
`,
      },
      { env: demoEnv },
    );
  })());
}

test.afterAll(async () => {
  await Promise.all([oneDemo?.stop(), browser?.stop()]);
});

test('each injection location reaches the server from authedRequest and from the page', async ({ demo, demoEnv }) => {
  const result = await runFirst(demoEnv);
  const main = projectResults(result).main;
  expect(main?.passed, result.output).toBe(8);
  expect(main?.failed).toBe(0);
  expect(result.exitCode).toBe(0);
  // Two workers, four users: four sign-ins in all, not one per worker or per test.
  expect(demo.counters.signIns).toEqual({ alice: 1, bob: 1, carol: 1, dave: 1 });

  // A second run reuses the cached sessions: no sign-in at all. (Counters only: resetting the
  // server would also forget the sessions it handed out.) One worker: what it reads from the cache
  // does not depend on how many there are, and a worker process fewer starts.
  const before = demo.counters.signIns;
  const again = await runInlineProject({ 'playwright.config.ts': playwrightConfig }, { env: demoEnv, dir: result.dir, args: ['--project=main', '--workers=1'] });
  expect(again.exitCode, again.output).toBe(0);
  expect(again.output).toContain('8 passed');
  expect(demo.counters.signIns).toEqual(before);
  expect(Object.values(again.annotations).flat().map((a) => a.description)).toContain('alice: reused from the session cache');

  // MULTIAUTH_CACHE=off: no reuse across runs, still once per user within the run.
  const fresh = await runInlineProject({ 'playwright.config.ts': playwrightConfig }, { env: { ...demoEnv, MULTIAUTH_CACHE: 'off' }, dir: result.dir, args: ['--project=main'] });
  expect(fresh.exitCode, fresh.output).toBe(0);
  expect(fresh.output).toContain('8 passed');
  expect(demo.counters.signIns).toEqual({ alice: 2, bob: 2, carol: 2, dave: 2 });
});

/** The status of the one result of the test titled `title` in `result`'s report. */
function statusOf(result: InlineResult, title: string): string | undefined {
  type Suite = { specs: Array<{ title: string; tests: Array<{ results: Array<{ status: string }> }> }>; suites?: Suite[] };
  const find = (suites: Suite[]): string | undefined => {
    for (const suite of suites) {
      const spec = suite.specs.find((s) => s.title === title);
      if (spec) return spec.tests[0]?.results[0]?.status;
      const inner = find(suite.suites ?? []);
      if (inner) return inner;
    }
    return undefined;
  };
  return find(result.report.suites as unknown as Suite[]);
}

test("a signed-in page is one context in the report: Playwright's own fixture step, no second around it", async ({ demoEnv }) => {
  const result = await runFirst(demoEnv);
  const steps = readSteps(result.dir);
  for (const user of ['alice', 'bob', 'carol', 'dave']) {
    const context = (steps[`${user} page`] ?? []).filter((s) => s.endsWith('Fixture "context"'));
    expect(context, result.output).toEqual(['Before Hooks > Fixture "context"', 'After Hooks > Fixture "context"']);
  }
});

test('a test without authUser is not signed in', async ({ demoEnv }) => {
  const result = await runFirst(demoEnv);
  expect(statusOf(result, 'anonymous'), result.output).toBe('passed');
});

test('annotations name the user and how it was authenticated, and nothing secret', async ({ demoEnv }) => {
  const result = await runFirst(demoEnv);
  expect(result.exitCode, result.output).toBe(0);
  expect(result.annotations.first).toEqual([
    { type: 'multiauth-user', description: 'alice' },
    { type: 'multiauth', description: 'alice: signed in' },
  ]);
  expect(result.annotations.second).toEqual([
    { type: 'multiauth-user', description: 'alice' },
    { type: 'multiauth', description: 'alice: reused in this worker' },
  ]);
  expect(JSON.stringify(result.report)).not.toContain('alice-password');
});
