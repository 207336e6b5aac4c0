import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { aheadUsers, startsNothingFirst } from '../../src/playwright/sign-in-ahead.js';
import { test, expect } from '../support/demo.js';
import { freePort } from '../support/ports.js';
import { ROOT } from '../support/root.js';
import { inlineConfig, runInlineProject } from '../support/inline-project.js';
import { startBrowserServer } from '../support/browser-server.js';

const projects = ['alice', 'bob', 'carol'].map((user) => ({ user, name: `api-${user}` }));
const run = (...args: string[]) => ['node', '/x/node_modules/@playwright/test/cli.js', 'test', ...args];
/** The demo's token endpoint as the procedure `token`; `path` is `/auth/token`, or its recorded twin `/rec/auth/token`. */
const tokenProcedure = (path: string) => `procedures:
  - name: token
    operations:
      - tech: http
        parameters: { url: "\${DEMO_URL}${path}", method: POST, body: { username: "{{username}}", password: "{{password}}" } }
        extractions: [{ name: access_token, location: body, key: data.auth.access_token }]
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: access_token }]
`;

/** A webdriver preset user (indented for `presets[].users`) who signs in on the demo's login page at `path`. */
const browserUser = (name: string, path: string) => `      - username: ${name}
        project:
          tests:
            - id: sign-in
              name: sign in on the login page
              commands:
                - { id: c1, command: open, target: "\${DEMO_URL}${path}" }
                - { id: c2, command: type, target: "id=username", value: ${name} }
                - { id: c3, command: type, target: "id=password", value: ${name}-password }
                - { id: c4, command: click, target: "css=button[type=submit]" }
                - { id: c5, command: waitForElementPresent, target: "css=[data-signed-in]", value: "10000" }`;

test('the runner signs ahead only the users of the projects a `playwright test` run here will run', () => {
  expect(aheadUsers({ projects, env: {}, argv: run() })).toEqual(['alice', 'bob', 'carol']);
  expect(aheadUsers({ projects, env: {}, argv: run('tests/a.spec.ts', '--workers=2') })).toEqual(['alice', 'bob', 'carol']);
  // --project as Playwright matches it: case aside, `*` for any characters, several names.
  expect(aheadUsers({ projects, env: {}, argv: run('--project=API-Bob') })).toEqual(['bob']);
  expect(aheadUsers({ projects, env: {}, argv: run('--project', 'api-bob', 'api-carol', '-j', '2') })).toEqual(['bob', 'carol']);
  expect(aheadUsers({ projects, env: {}, argv: run('--project=api-*o*') })).toEqual(['bob', 'carol']);
  expect(aheadUsers({ projects, env: {}, argv: run('--project=*ce') })).toEqual(['alice']);
  expect(aheadUsers({ projects, env: {}, argv: run('--project=web-*') })).toEqual([]);
  // No run of tests here: listing, the UI, help, another command; a worker; turned off.
  for (const argv of [run('--list'), run('--ui'), run('--ui-port=0'), run('--help'), ['node', 'cli.js', 'show-report'], ['node', 'cli.js', 'test-server']]) {
    expect(aheadUsers({ projects, env: {}, argv })).toEqual([]);
  }
  expect(aheadUsers({ projects, env: { TEST_WORKER_INDEX: '0' }, argv: run() })).toEqual([]);
  expect(aheadUsers({ projects, env: { MULTIAUTH_SIGN_IN_AHEAD: 'off' }, argv: run() })).toEqual([]);
  expect(aheadUsers({ projects: [...projects, { user: 'alice', name: 'web-alice' }], env: {}, argv: run() })).toEqual(['alice', 'bob', 'carol']);
});

// The application is started by Playwright's webServer, after the config loaded: a sign-in started
// then would be refused, remembered, and fail every test of the user.
test('the runner signs the HTTP users in once its first worker started; a browser user signs in in its worker, on the browser its pages use', async () => {
  test.setTimeout(120_000);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // Both workers' pages and dave's sign-in connect to one chromium rather than launching one each.
  const browser = await startBrowserServer();
  const token = (user: string, password: string) => `  - { name: ${user}, procedure: token, credentials: { username: ${user}, password: ${password} } }`;
  const result = await runInlineProject(
    {
      'playwright.config.ts': inlineConfig(`
  webServer: { command: 'node --import tsx ${join(ROOT, 'fixtures', 'demo-server', 'main.ts')} --port ${port}', url: '${url}/__counters', reuseExistingServer: false },
  projects: [
    ...(await import('playwright-multiauth')).authProjects({ name: 'api', testMatch: /user\\.spec\\.ts/ }, { workers: 2 }),
    { name: 'counts', testMatch: /counts\\.spec\\.ts/, dependencies: ['api-alice', 'api-carol', 'api-dave'] },
  ],`).replace('use: {', `use: { ${browser.useText}`),
      'multiauth.yaml': `${tokenProcedure('/auth/token')}users:
${token('alice', 'alice-password')}
${token('bob', 'not-bobs-password')}
${token('carol', 'carol-password')}
presets:
  - type: webdriver
    users:
${browserUser('dave', '/login')}
`,
      'user.spec.ts': `
import { test, expect } from 'playwright-multiauth';
const user = () => test.info().project.name.replace(/^api-/, '');
test('whoami', async ({ authedRequest }) => {
  expect((await (await authedRequest.get('/whoami')).json()).user).toBe(user());
});
// @ts-expect-error: the fixtures' own browser, kept out of the type as Playwright keeps its own.
test('page', async ({ page, browser, _authBrowser }) => {
  await page.goto('/whoami');
  await expect(page.locator('body')).toContainText('"user":"' + user() + '"');
  expect(await _authBrowser.get()).toBe(browser);
});
`,
      'counts.spec.ts': `
import { test } from '@playwright/test';
import { writeFileSync } from 'node:fs';
test('counts', async ({ request }) => {
  writeFileSync('counts.json', JSON.stringify(await (await request.get('${url}/__counters')).json()));
});
`,
    },
    { env: { DEMO_URL: url } },
  ).finally(() => browser.stop());
  const { output, dir } = result;
  // bob's two tests fail with the runner's remembered failure; everyone else's pass.
  expect({ passed: result.passed, failed: result.failed }, output).toEqual({ passed: 7, failed: 2 });
  expect(output).toContain('multiauth: 3 users signed in');
  expect(output).toContain('0 from the cache, 0 refreshed, 0 signed in again, 0 denials kept, 1 failed');
  expect(output).toMatch(/bob[\s\S]*401/);
  expect(output).not.toContain('not-bobs-password');
  expect(output).not.toContain('alice-password');
  const rows = timelineRows(dir);
  expect(rows.filter((row) => row.startsWith('runner')).sort()).toEqual(['runner | alice | signed in', 'runner | bob | failed (AUTH_HTTP_STATUS)', 'runner | carol | signed in']);
  expect(rows.filter((row) => !row.startsWith('runner')).map((row) => row.replace(/^worker \d+/, 'worker')).sort()).toEqual([
    'worker | alice | from the cache',
    'worker | carol | from the cache',
    'worker | dave | signed in',
  ]);
  // Once per user and run: bob's wrong password was tried once, not once per test or worker.
  const counts = JSON.parse(readFileSync(join(dir, 'counts.json'), 'utf8')) as { signIns: Record<string, number>; endpoints: Record<string, number> };
  expect(counts.signIns).toEqual({ alice: 1, carol: 1, dave: 1 });
  expect(counts.endpoints['POST /auth/token']).toBe(3);
});

test('a config that starts nothing before the workers (no webServer, no globalSetup, as require loaded it) is told from one that does, or one that cannot be read', () => {
  const file = '/p/playwright.config.ts';
  const cached = (exports: unknown) => ({ [file]: { exports } });
  expect(startsNothingFirst(file, cached({ default: { projects: [], use: {} } }))).toBe(true);
  expect(startsNothingFirst(file, cached({ projects: [] }))).toBe(true);
  expect(startsNothingFirst(file, cached({ default: { webServer: [], globalSetup: [] } }))).toBe(true);
  expect(startsNothingFirst(file, cached({ default: { webServer: { command: 'npm start' } } }))).toBe(false);
  expect(startsNothingFirst(file, cached({ default: { webServer: [{ command: 'npm start' }] } }))).toBe(false);
  expect(startsNothingFirst(file, cached({ default: { globalSetup: './setup.ts' } }))).toBe(false);
  expect(startsNothingFirst(file, cached({ default: { globalSetup: ['./a.ts'] } }))).toBe(false);
  // Not told: not loaded by require (an ES module config), not loaded at all, not a config's shape.
  expect(startsNothingFirst(file, {})).toBe(false);
  expect(startsNothingFirst(undefined, cached({ default: {} }))).toBe(false);
  for (const exports of [undefined, null, { default: null }, { default: [] }, { default: 'x' }]) expect(startsNothingFirst(file, cached(exports))).toBe(false);
  // A key of the cache named like an Object member is no config.
  expect(startsNothingFirst('__proto__', {})).toBe(false);
});

// Nothing starts before the workers here (the demo server is up already): waiting for the first
// worker would only delay the sign-ins, and the first tests with them. A browser user signs in on
// the runner's own browser, launched as its project's workers would launch theirs; one whose
// project launches another way signs in in its worker.
test('with no webServer and no globalSetup the runner signs in before any worker has started, browser users on a browser of its own', async ({ demo }) => {
  test.setTimeout(120_000);
  demo.clear();
  const result = await runInlineProject(
    {
      // A CommonJS project, as `npm init playwright` makes: its config is require()d.
      'package.json': JSON.stringify({ private: true }),
      'playwright.config.ts': `
import { defineConfig } from '@playwright/test';
import { authProjects } from 'playwright-multiauth';
export default defineConfig({
  outputDir: 'test-results',
  reporter: [['json', { outputFile: 'report.json' }], ['list']],
  use: { baseURL: process.env.DEMO_URL },
  // erin's workers launch their browser with other arguments than dave's.
  projects: authProjects({ name: 'api' }, { workers: 2 }).map((p) => (p.name === 'api-erin' ? { ...p, use: { ...p.use, launchOptions: { args: ['--lang=fr'] } } } : p)),
});
`,
      'multiauth.yaml': `${tokenProcedure('/rec/auth/token')}users:
  - { name: alice, procedure: token, credentials: { username: alice, password: alice-password } }
  - { name: carol, procedure: token, credentials: { username: carol, password: carol-password } }
presets:
  - type: webdriver
    users:
${browserUser('dave', '/rec/login')}
${browserUser('erin', '/rec/login')}
`,
      'user.spec.ts': `
import { test, expect } from 'playwright-multiauth';
import { writeFileSync } from 'node:fs';
test('whoami', async ({ authedRequest }, testInfo) => {
  const user = testInfo.project.name.replace(/^api-/, '');
  expect((await (await authedRequest.get('/whoami')).json()).user).toBe(user);
  writeFileSync('worker-' + testInfo.workerIndex + '.json', JSON.stringify({ started: performance.timeOrigin }));
});
`,
    },
    { env: { DEMO_URL: demo.url } },
  );
  const { output, dir } = result;
  expect({ passed: result.passed, failed: result.failed }, output).toEqual({ passed: 4, failed: 0 });
  expect(output).toContain('multiauth: 4 users signed in');
  expect(output).not.toMatch(/(alice|carol|dave|erin)-password/);
  expect(result.annotations['whoami']?.map((a) => a.description)).toEqual(expect.arrayContaining([
    expect.stringMatching(/^alice: signed in ahead by the runner/),
    expect.stringMatching(/^dave: signed in ahead by the runner/),
  ]));
  expect(timelineRows(dir).map((row) => row.replace(/^worker \d+/, 'worker')).sort()).toEqual([
    'runner | alice | signed in',
    'runner | carol | signed in',
    'runner | dave | signed in',
    'worker | alice | from the cache',
    'worker | carol | from the cache',
    'worker | dave | from the cache',
    'worker | erin | signed in',
  ]);
  const workers = readdirSync(dir).filter((name) => /^worker-\d+\.json$/.test(name)).map((name) => (JSON.parse(readFileSync(join(dir, name), 'utf8')) as { started: number }).started);
  expect(workers.length).toBeGreaterThan(0);
  // The token sign-ins reached the server before the first worker process existed (the browser
  // sign-in follows its browser's launch); each browser user's login page was opened once.
  const tokens = demo.seen.filter((r) => r.path === '/auth/token');
  expect(tokens).toHaveLength(2);
  for (const signIn of tokens) expect(signIn.at).toBeLessThan(Math.min(...workers));
  expect(demo.seen.filter((r) => r.path === '/login' && r.method === 'GET')).toHaveLength(2);
});

/** The rows of a run's timeline (test-results/multiauth-timeline.txt) as `who | user | what`. */
function timelineRows(dir: string): string[] {
  return readFileSync(join(dir, 'test-results', 'multiauth-timeline.txt'), 'utf8')
    .split('\n')
    .slice(3)
    .filter(Boolean)
    .map((line) => line.trim().split(/\s{2,}/).slice(1, 4).join(' | '));
}
