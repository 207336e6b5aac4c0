import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, MULTI_CONFIG, type EchoServer } from './support.js';
import { projectResults, runInlineProject, type ProjectResult } from '../support/inline-project.js';
import { ROOT } from '../support/root.js';
import { CHROMIUM } from '../support/chromium.js';
import { digestOf, openConfig, sessionFilePath } from '../../src/sessions/index.js';

test.describe.configure({ mode: 'serial', timeout: 180_000 });

// The first two tests read one child run, a project each (its own config; `everywhere` without a
// baseURL), made before them with this worker's demo and echo servers. What the echo server saw is
// copied at once: each test's demoEnv clears it.
let scoped: { output: string; exitCode: number | null; projects: Record<string, ProjectResult>; seen: EchoServer['seen'] };

test.beforeAll(async ({ demo, echo }) => {
  test.setTimeout(180_000);
  demo.reset();
  echo.seen.length = 0;
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
    },
    { env: { DEMO_URL: demo.url, ECHO_URL: echo.url } },
  );
  scoped = { output: result.output, exitCode: result.exitCode, projects: projectResults(result), seen: [...echo.seen] };
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

test('a lock left by a killed worker does not hang the run', async ({ demo, demoEnv }) => {
  const files = {
    'multiauth.yaml': MULTI_CONFIG,
    'a.spec.ts': `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'alice' });
test('alice', async ({ authedRequest }) => { expect((await (await authedRequest.get('/whoami')).json()).user).toBe('alice'); });
`,
  };
  // The run's folder, written before the run (no child run needed to make it).
  mkdirSync(join(ROOT, '.tmp-inline'), { recursive: true });
  const first = { dir: mkdtempSync(join(ROOT, '.tmp-inline', 'p-')) };
  writeFileSync(join(first.dir, 'multiauth.yaml'), MULTI_CONFIG);
  // What a worker killed mid sign-in leaves: the lock directory, no longer refreshed.
  const opened = await openConfig({ file: join(first.dir, 'multiauth.yaml'), baseDir: first.dir, env: demoEnv, notFoundHint: '' });
  const { users, userKeys } = digestOf(opened, 'any', true);
  const lock = `${sessionFilePath(join(first.dir, '.auth'), userKeys[users.indexOf('alice')]!, 'alice')}.lock`;
  mkdirSync(lock, { recursive: true });
  const old = new Date(Date.now() - 60_000);
  utimesSync(lock, old, old);
  const before = demo.counters.signIns.alice ?? 0;
  const started = Date.now();
  const result = await runInlineProject(files, { env: demoEnv, dir: first.dir });
  expect(result.output).toContain('1 passed');
  expect((demo.counters.signIns.alice ?? 0) - before).toBe(1);
  expect(Date.now() - started).toBeLessThan(30_000);
});
