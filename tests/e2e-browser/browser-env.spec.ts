import { join } from 'node:path';
import { runCliAsync } from '../support/cli.js';
import { tempFiles } from '../support/temp-files.js';
import { projectResults, runInlineProject } from '../support/inline-project.js';
import { CHROMIUM } from '../support/chromium.js';
import { startDemoServer } from '../../fixtures/demo-server/index.js';
import { expect, test } from './support.js';


// Issue 16, item 1: a webdriver user whose password and base URL come from `.env` (a browser user
// could not read `.env`: `${NAME}` in a command was always read as a Selenium variable). `${NAME}`
// of the environment expands in commands; names the config gives Selenium variables keep that
// meaning, and validate says which reading it chose when a name is both.
const CONFIG = `
presets:
  - type: webdriver
    wait_for_seconds: 10
    extractions:
      - { name: access_token, location: header, key: Authorization, regex: "^Bearer (.+)$" }
    injections:
      - { location: header, key: Authorization, prefix: Bearer, variable: access_token }
    users:
      - username: bob
        password: "\${BOB_PASSWORD}"
        variables: { greeting: hello }
        project:
          tests:
            - id: t
              name: sign in as bob
              commands:
                - { id: c1, command: open, target: "\${BASE_URL}/login" }
                - { id: c2, command: storeText, target: "css=h1", value: heading }
                - { id: c3, command: echo, target: "\${heading} \${greeting}" }
                - { id: c4, command: type, target: "id=username", value: "\${username}" }
                - { id: c5, command: type, target: "id=password", value: "{{password}}" }
                - { id: c6, command: click, target: "css=button[type=submit]" }
                - { id: c7, command: waitForElementPresent, target: "css=[data-signed-in]", value: "10000" }
`;

test('from the CLI: the password and base URL come from .env; Selenium names keep their meaning', async ({ demo }) => {
  demo.clear();
  const { dir, remove } = tempFiles({ 'multiauth.yaml': CONFIG, '.env': `BASE_URL=${demo.url}\nBOB_PASSWORD=bob-password\nheading=from-env\n` });
  try {
    const validate = await runCliAsync(['validate', '-c', join(dir, 'multiauth.yaml')]);
    expect(validate.code).toBe(0);
    expect(validate.stderr).toContain('${heading} is read as the Selenium variable heading (the config declares, stores or extracts it), not as the environment variable');
    const run = await runCliAsync(['login', 'bob', '-c', join(dir, 'multiauth.yaml'), '--browser-path', CHROMIUM]);
    // The warning again, and nothing else.
    expect(run.stderr.split('\n').filter((line) => line.trim() !== '' && !line.includes('is read as the Selenium variable') && !line.includes('Rename one of them'))).toEqual([]);
    expect(run.code).toBe(0);
    expect(demo.counters.signIns).toEqual({ bob: 1 });
    expect(run.stdout).not.toContain('bob-password');
  } finally {
    remove();
  }
});

// Issue 16, items 1 and 2 through the fixtures: one child run, a project per case side by side,
// each with its own config folder (its own .env and .auth) and its own demo server (its own
// counters), rather than three runs in a row:
// - `given`: the config's launchOptions.executablePath; the same config signs bob in;
// - `system`: no executablePath, and Playwright's own Chromium is not installed here: the sign-in
//   browser is the system's, as the CLI finds it;
// - `missing`: MULTIAUTH_BROWSER_PATH names nothing: one error naming the user, what was tried and the fixes.
const PROJECTS = ['given', 'system', 'missing'] as const;
type Case = (typeof PROJECTS)[number];
const BOB_SPEC = (setup = '') => `
import { test, expect } from 'playwright-multiauth';
${setup}
test.use({ authUser: 'bob' });
test('bob', async ({ authedRequest }) => {
  expect((await (await authedRequest.get('/whoami')).json()).user).toBe('bob');
});
`;
// MULTIAUTH_BROWSER_PATH is read per process: set in this project's workers (which run no other
// project), never in the runner, whose environment the other projects' workers inherit.
const MISSING_SETUP = "if (process.env.TEST_WORKER_INDEX !== undefined) process.env.MULTIAUTH_BROWSER_PATH = '/nonexistent/chromium';";

/** The run's projects: what each did, and the sign-ins its own demo server counted right after the run. */
interface CaseResult {
  passed: number;
  failed: number;
  signIns: Record<string, number>;
}
interface Run {
  output: string;
  cases: Record<Case, CaseResult>;
}

async function runCases(): Promise<Run> {
  const servers = await Promise.all(PROJECTS.map(() => startDemoServer()));
  try {
    const urls = Object.fromEntries(PROJECTS.map((name, i) => [name, servers[i]!.url])) as Record<Case, string>;
    // No top-level launchOptions: `system` and `missing` name no executablePath.
    const config = `
import { defineConfig } from '@playwright/test';
export default defineConfig({
  outputDir: 'test-results',
  reporter: [['json', { outputFile: 'report.json' }], ['list']],
  projects: [
    { name: 'given', testDir: 'given', use: { authConfig: 'given/multiauth.yaml', baseURL: ${JSON.stringify(urls.given)}, launchOptions: { executablePath: ${JSON.stringify(CHROMIUM)} } } },
    { name: 'system', testDir: 'system', use: { authConfig: 'system/multiauth.yaml', baseURL: ${JSON.stringify(urls.system)} } },
    { name: 'missing', testDir: 'missing', use: { authConfig: 'missing/multiauth.yaml', baseURL: ${JSON.stringify(urls.missing)} } },
  ],
});
`;
    const files: Record<string, string> = { 'playwright.config.ts': config };
    for (const name of PROJECTS) {
      files[`${name}/multiauth.yaml`] = CONFIG;
      files[`${name}/.env`] = `BASE_URL=${urls[name]}\nBOB_PASSWORD=bob-password\n`;
      files[`${name}/a.spec.ts`] = BOB_SPEC(name === 'missing' ? MISSING_SETUP : '');
    }
    const result = await runInlineProject(files, { env: { MULTIAUTH_BROWSER_PATH: '' } });
    const projects = projectResults(result);
    const cases = Object.fromEntries(
      PROJECTS.map((name, i) => [name, { passed: projects[name]?.passed ?? 0, failed: projects[name]?.failed ?? 0, signIns: servers[i]!.counters.signIns }]),
    ) as Record<Case, CaseResult>;
    return { output: result.output, cases };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

test.describe('inside Playwright Test (one child run, a project per case)', () => {
  // One worker runs the three in order and makes the run once, for the first of them: the first
  // bears the three projects' run (three workers, two browsers on a loaded machine), hence the time.
  test.describe.configure({ mode: 'default', timeout: 180_000 });
  let run: Promise<Run> | undefined;
  const cases = () => (run ??= runCases());

  test('the same config signs bob in', async () => {
    const { output, cases: { given } } = await cases();
    expect(given.passed, output).toBe(1);
    expect(given.failed, output).toBe(0);
    expect(given.signIns).toEqual({ bob: 1 });
  });

  test('without executablePath, the sign-in finds the system Chromium', async () => {
    const { output, cases: { system } } = await cases();
    expect(system.passed, output).toBe(1);
    expect(system.failed, output).toBe(0);
    expect(system.signIns).toEqual({ bob: 1 });
  });

  test('a browser path that names nothing is one error naming the user, the path and both fixes', async () => {
    const { output, cases: { missing } } = await cases();
    expect(missing.failed, output).toBe(1);
    expect(output).toContain('no browser at /nonexistent/chromium (MULTIAUTH_BROWSER_PATH)');
    expect(output).toContain('while signing in user "bob"');
    expect(output).toContain('npx playwright install chromium');
    expect(output).toContain('launchOptions: { executablePath }');
    expect(output.split('no browser at /nonexistent/chromium').length - 1).toBe(1);
    expect(missing.signIns).toEqual({});
  });
});
