import { join } from 'node:path';
import { runCliAsync } from '../support/cli.js';
import { tempFiles } from '../support/temp-files.js';
import { runInlineProject } from '../support/inline-project.js';
import { expect, test } from './support.js';

const CHROMIUM = '/usr/lib/chromium/chromium';

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

test('inside a Playwright test: the same config signs bob in', async ({ demo }) => {
  demo.clear();
  const spec = `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'bob' });
test('bob', async ({ authedRequest }) => {
  expect((await (await authedRequest.get('/whoami')).json()).user).toBe('bob');
});
`;
  const result = await runInlineProject(
    { 'multiauth.yaml': CONFIG, '.env': `BASE_URL=${demo.url}\nBOB_PASSWORD=bob-password\n`, 'a.spec.ts': spec },
    { env: { DEMO_URL: demo.url } },
  );
  expect(result.output).toMatch(/1 passed/);
  expect(demo.counters.signIns).toEqual({ bob: 1 });
});

// Issue 16, item 2: the fixtures find a browser as the CLI does. This project names no
// executablePath, and Playwright's own Chromium is not installed here: the sign-in browser is the
// system's. A path that names nothing is one error naming the user, what was tried and the fixes.
const NO_EXECUTABLE_CONFIG = `
import { defineConfig } from '@playwright/test';
export default defineConfig({ outputDir: 'test-results', reporter: [['json', { outputFile: 'report.json' }], ['list']], use: { baseURL: process.env.DEMO_URL } });
`;
const BOB_SPEC = `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'bob' });
test('bob', async ({ authedRequest }) => {
  expect((await (await authedRequest.get('/whoami')).json()).user).toBe('bob');
});
`;

test('inside a Playwright test without executablePath, the sign-in finds the system Chromium', async ({ demo }) => {
  demo.clear();
  const files = { 'playwright.config.ts': NO_EXECUTABLE_CONFIG, 'multiauth.yaml': CONFIG, '.env': `BASE_URL=${demo.url}\nBOB_PASSWORD=bob-password\n`, 'a.spec.ts': BOB_SPEC };
  const found = await runInlineProject(files, { env: { DEMO_URL: demo.url, MULTIAUTH_BROWSER_PATH: '' } });
  expect(found.output).toMatch(/1 passed/);
  expect(demo.counters.signIns).toEqual({ bob: 1 });
});

test('a browser path that names nothing is one error naming the user, the path and both fixes', async ({ demo }) => {
  demo.clear();
  const files = { 'playwright.config.ts': NO_EXECUTABLE_CONFIG, 'multiauth.yaml': CONFIG, '.env': `BASE_URL=${demo.url}\nBOB_PASSWORD=bob-password\n`, 'a.spec.ts': BOB_SPEC };
  const missing = await runInlineProject(files, { env: { DEMO_URL: demo.url, MULTIAUTH_BROWSER_PATH: '/nonexistent/chromium' } });
  expect(missing.failed).toBe(1);
  expect(missing.output).toContain('no browser at /nonexistent/chromium (MULTIAUTH_BROWSER_PATH)');
  expect(missing.output).toContain('while signing in user "bob"');
  expect(missing.output).toContain('npx playwright install chromium');
  expect(missing.output).toContain('launchOptions: { executablePath }');
  expect(missing.output.split('no browser at /nonexistent/chromium').length - 1).toBe(1);
  expect(demo.counters.signIns).toEqual({});
});
