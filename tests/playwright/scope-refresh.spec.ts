import { existsSync, mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, MULTI_CONFIG, type EchoServer } from './support.js';
import { projectResults, runInlineProject, type ProjectResult } from '../support/inline-project.js';
import { inlineBase } from '../support/inline-package.js';
import { startDemoServer, type DemoServer } from '../../fixtures/demo-server/index.js';
import { CHROMIUM } from '../support/chromium.js';
import { digestOf, openConfig, sessionFilePath } from '../../src/sessions/index.js';

test.describe.configure({ mode: 'serial', timeout: 180_000 });

// One child run, a project per scenario, made before the tests, is read by three of them, each its
// own project: `scoped` and `everywhere` use this worker's demo and echo servers (`everywhere`
// without a baseURL); `lock` has a demo server of its own, so that the sign-ins it counts are its
// own. The refresh's run stays its own: its two workers must start together, which other
// projects beside it do not ensure. What the echo server saw is copied at once: each test's
// demoEnv clears it.
let scoped: { output: string; exitCode: number | null; projects: Record<string, ProjectResult>; seen: EchoServer['seen']; lockMs: number };
const own: { lock?: DemoServer } = {};
let lockFile = '';

test.beforeAll(async ({ demo, echo }) => {
  test.setTimeout(180_000);
  demo.reset();
  echo.seen.length = 0;
  own.lock = await startDemoServer();
  const spec = (user: string) => `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: '${user}' });
test('${user} stays in scope', async ({ page }) => {
  await page.goto('/');
  const here = await page.evaluate(async () => (await fetch('/whoami', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":1}' })).json());
  expect(here.user).toBe('${user}');
  await page.evaluate(async (echo) => { await fetch(echo + '/elsewhere?from=${user}', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"n":1}' }); }, process.env.ECHO_URL);
});
`;
  // The run's folder, written before the run: what a worker killed mid sign-in leaves is in the
  // lock project's cache (.auth/ beside its config), the lock directory no longer refreshed.
  const dir = mkdtempSync(join(inlineBase(), 'p-'));
  const lockConfig = MULTI_CONFIG.replaceAll('${DEMO_URL}', own.lock.url);
  mkdirSync(join(dir, 'lock'), { recursive: true });
  writeFileSync(join(dir, 'lock', 'multiauth.yaml'), lockConfig);
  // baseDir: the Playwright config's folder, as the fixtures give it.
  const opened = await openConfig({ file: join(dir, 'lock', 'multiauth.yaml'), baseDir: dir, env: {}, notFoundHint: '' });
  const { users, userKeys } = digestOf(opened, 'any', true);
  lockFile = sessionFilePath(join(dir, 'lock', '.auth'), userKeys[users.indexOf('alice')]!, 'alice');
  const lock = `${lockFile}.lock`;
  mkdirSync(lock, { recursive: true });
  const old = new Date(Date.now() - 60_000);
  utimesSync(lock, old, old);
  const result = await runInlineProject(
    {
      'playwright.config.ts': `
import { defineConfig } from '@playwright/test';
export default defineConfig({
  outputDir: 'test-results',
  reporter: [['json', { outputFile: 'report.json' }], ['list']],
  use: { launchOptions: { executablePath: process.env.MULTIAUTH_BROWSER_PATH || ${JSON.stringify(CHROMIUM)} } },
  projects: [
    { name: 'scoped', testDir: 'scoped', use: { baseURL: process.env.DEMO_URL, authConfig: 'scoped/multiauth.yaml' } },
    { name: 'everywhere', testDir: 'everywhere', use: { authConfig: 'everywhere/multiauth.yaml' } },
    { name: 'lock', testDir: 'lock', use: { baseURL: '${own.lock.url}', authConfig: 'lock/multiauth.yaml' } },
  ],
});
`,
      'scoped/multiauth.yaml': `scope: ["\${DEMO_URL}"]\n${MULTI_CONFIG}`,
      'scoped/a.spec.ts': spec('alice'),
      'scoped/b.spec.ts': spec('bob'),
      'scoped/c.spec.ts': spec('carol'),
      'scoped/d.spec.ts': spec('dave'),
      'everywhere/multiauth.yaml': MULTI_CONFIG,
      'everywhere/a.spec.ts': `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'alice' });
test('alice everywhere', async ({ page }) => {
  await page.goto(process.env.ECHO_URL + '/everywhere');
});
`,
      'lock/a.spec.ts': `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'alice' });
test('alice', async ({ authedRequest }) => { expect((await (await authedRequest.get('/whoami')).json()).user).toBe('alice'); });
`,
    },
    { env: { DEMO_URL: demo.url, ECHO_URL: echo.url }, dir },
  );
  scoped = { output: result.output, exitCode: result.exitCode, projects: projectResults(result), seen: [...echo.seen], lockMs: durationOf(result.report, 'lock') };
});

/** The time (ms) the one test of `project` took in a child run's JSON report, -1 if none ran. */
function durationOf(report: unknown, project: string): number {
  type Suite = { specs?: Array<{ tests: Array<{ projectName: string; results: Array<{ duration: number }> }> }>; suites?: Suite[] };
  let found = -1;
  const visit = (suite: Suite): void => {
    for (const spec of suite.specs ?? []) for (const t of spec.tests) if (t.projectName === project) found = t.results[0]?.duration ?? -1;
    suite.suites?.forEach(visit);
  };
  ((report as { suites?: Suite[] }).suites ?? []).forEach(visit);
  return found;
}

test.afterAll(async () => {
  await own.lock?.stop();
});

test('with a scope set, requests to another origin carry nothing', () => {
  expect(scoped.projects.scoped, scoped.output).toMatchObject({ passed: 4, failed: 0 });
  const outside = scoped.seen.filter((r) => r.url.startsWith('/elsewhere'));
  expect(outside).toHaveLength(4);
  for (const request of outside) {
    expect(request.headers.authorization).toBeUndefined();
    expect(request.headers.cookie).toBeUndefined();
    expect(request.url).not.toContain('access_token');
  }
});

test('without a scope or baseURL, the page sends the credentials everywhere, as extraHTTPHeaders would', () => {
  expect(scoped.exitCode, scoped.output).toBe(0);
  expect(scoped.projects.everywhere, scoped.output).toMatchObject({ passed: 1, failed: 0 });
  const hit = scoped.seen.find((r) => r.url === '/everywhere');
  expect(hit?.headers.authorization).toMatch(/^Bearer /);
});

test('a session that expires mid-run is refreshed once, not once per worker', async ({ demo, demoEnv }) => {
  // Tokens live 3 s: used for 2.25 s (a quarter of the lifetime is the margin), then refreshed.
  const config = MULTI_CONFIG.replace('url: ${DEMO_URL}/auth/token\n', 'url: ${DEMO_URL}/auth/token?ttl=3\n').replace(
    '      - { name: token, location: body, key: data.auth.access_token }\n',
    '      - { name: token, location: body, key: data.auth.access_token }\n      - { name: expires_in, location: body, key: data.auth.expires_in }\n',
  );
  const spec = (n: number) => `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'alice' });
test('early ${n}', async ({ authedRequest }) => { expect((await (await authedRequest.get('/whoami')).json()).user).toBe('alice'); });
test('late ${n}', async ({ authedRequest }) => {
  await new Promise((r) => setTimeout(r, 3500));
  expect((await (await authedRequest.get('/whoami')).json()).user).toBe('alice');
});
`;
  const before = demo.counters.signIns.alice ?? 0;
  const result = await runInlineProject({ 'multiauth.yaml': config, 'a.spec.ts': spec(1), 'b.spec.ts': spec(2) }, { env: demoEnv });
  expect(result.output).toContain('4 passed');
  expect((demo.counters.signIns.alice ?? 0) - before).toBe(2);
  const sources = Object.values(result.annotations).flat().map((a) => a.description);
  expect(sources.filter((s) => s === 'alice: signed in')).toHaveLength(1);
  expect(sources.filter((s) => s === 'alice: refreshed')).toHaveLength(1);
});

test('a lock left by a killed worker does not hang the run', () => {
  expect(scoped.projects.lock, scoped.output).toMatchObject({ passed: 1, failed: 0 });
  expect(own.lock?.counters.signIns.alice ?? 0).toBe(1);
  // The session was written where the stale lock was: the lock was the one the sign-in met.
  expect(existsSync(lockFile), lockFile).toBe(true);
  // The bound the run of its own had, now on the test's own time (its fixtures' sign-in, where
  // a lock is waited for, included): the other projects of the run do not count against it.
  expect(scoped.lockMs, scoped.output).toBeGreaterThan(0);
  expect(scoped.lockMs).toBeLessThan(30_000);
});
