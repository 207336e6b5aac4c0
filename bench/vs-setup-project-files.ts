import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The size of the suite both sides run. */
export interface SuiteShape {
  /** Users signing in at the token endpoint (a Bearer token). */
  apiUsers: number;
  /** Users signing in through the login page in a browser (a session cookie). */
  browserUsers: number;
  /** API tests per user. */
  apiTests: number;
  /** Page tests per user. */
  pageTests: number;
  workers: number;
}

/** A side's Playwright project on disk. */
export interface Side {
  name: 'ours' | 'theirs' | 'no-auth';
  dir: string;
  /** Tests every run must pass (the setup project's included). */
  tests: number;
  /** Forgets what earlier runs signed in (session cache, storageState files). */
  clean(): void;
}

/** Demo accounts the users sign in as (tina has a second factor, which the guide's pattern does not show). */
const ACCOUNTS = ['alice', 'bob', 'carol', 'dave', 'erin'];

/** One user of the bench's suite: its name in the suite, the demo account, and how it signs in. */
export interface BenchUser {
  name: string;
  account: string;
  browser: boolean;
}

/**
 * The suite's users: API users first, then browser users, each on a demo account.
 *
 * @example
 * usersOf(HEADLINE).map((u) => u.name); // ['api-1', ..., 'api-6', 'web-1', 'web-2']
 */
export function usersOf(shape: SuiteShape): BenchUser[] {
  const api = Array.from({ length: shape.apiUsers }, (_, i) => ({ name: `api-${i + 1}`, account: ACCOUNTS[i % ACCOUNTS.length]!, browser: false }));
  const web = Array.from({ length: shape.browserUsers }, (_, i) => ({ name: `web-${i + 1}`, account: ACCOUNTS[(i + 1) % ACCOUNTS.length]!, browser: true }));
  return [...api, ...web];
}

/**
 * The reporter both sides run with (and no other, so neither pays for printing): it notes when the
 * first test of the suite ended (a setup test is not a result of the suite) and how many tests
 * passed, into `BENCH_FIRST_RESULT`.
 */
export const FIRST_RESULT_REPORTER = `import { writeFileSync } from 'node:fs';
export default class FirstResult {
  first = 0;
  passed = 0;
  onTestEnd(test, result) {
    if (result.status === 'passed') this.passed++;
    if (!this.first && test.parent.project()?.name !== 'setup') this.first = Date.now();
  }
  onEnd() {
    writeFileSync(process.env.BENCH_FIRST_RESULT, JSON.stringify({ first: this.first, passed: this.passed }));
  }
}
`;

/**
 * Where the sides find Debian's Chromium (Playwright cannot download its own here): its old
 * headless shell first, which is what Playwright runs headless with its own browsers.
 */
export const BROWSER_PATHS = ['/usr/lib/chromium/chromium-headless-shell', '/usr/lib/chromium/chromium', '/usr/bin/chromium'];
/** {@link BROWSER_PATHS} as a line of a side's config, `MULTIAUTH_BROWSER_PATH` first. */
export const BROWSER = `const executablePath = [process.env.MULTIAUTH_BROWSER_PATH, ...${JSON.stringify(BROWSER_PATHS)}].find((p) => p && existsSync(p));`;

/** What every side's config shares: the options of \`npm init playwright\`'s config that matter here. */
export function sharedConfig(shape: SuiteShape): string {
  return `testDir: 'tests',
  fullyParallel: true,
  workers: ${shape.workers},
  reporter: [['./first-result.mjs']],
  use: { baseURL: process.env.DEMO_URL, launchOptions: executablePath ? { executablePath } : {} },`;
}

/**
 * The API and page specs every side runs, the same tests but for the import and the request fixture.
 *
 * @example
 * const { api, page } = specs(HEADLINE, `import { test, expect } from '@playwright/test';`, 'request');
 */
export function specs(shape: SuiteShape, importLine: string, requestFixture: string): { api: string; page: string } {
  const expectUser = `const account = ACCOUNTS[test.info().project.name.replace(/^suite-/, '')]!;`;
  const accounts = `const ACCOUNTS: Record<string, string> = ${JSON.stringify(Object.fromEntries(usersOf(shape).map((u) => [u.name, u.account])))};`;
  return {
    api: `${importLine}
${accounts}
for (let i = 0; i < ${shape.apiTests}; i++) {
  test('api ' + i, async ({ ${requestFixture} }) => {
    ${expectUser}
    const response = await ${requestFixture}.get('/whoami');
    expect(response.status()).toBe(200);
    expect((await response.json()).user).toBe(account);
  });
}
`,
    page: `${importLine}
${accounts}
for (let i = 0; i < ${shape.pageTests}; i++) {
  test('page ' + i, async ({ page }) => {
    ${expectUser}
    await page.goto('/whoami');
    await expect(page.locator('body')).toContainText('"user":"' + account + '"');
  });
}
`,
  };
}

/**
 * Empties `dir` and writes what every side has: `tests/` and the first-result reporter.
 *
 * @example
 * writeCommon(dir);
 */
export function writeCommon(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'tests'), { recursive: true });
  writeFileSync(join(dir, 'first-result.mjs'), FIRST_RESULT_REPORTER);
}

/**
 * Ours: `multiauth.yaml` declares the users (a token procedure for the API users, a recorded
 * login-page sign-in for the browser users), `authProjects` makes one project per user, the
 * specs use `authedRequest` and `page`. Sessions are cached in `.auth/` beside the config.
 *
 * @example
 * const side = ourSide(join(installedPackageRoot(join(tmpdir(), "multiauth-bench-vs")), "ours"), HEADLINE);
 */
export function ourSide(dir: string, shape: SuiteShape): Side {
  writeCommon(dir);
  const users = usersOf(shape);
  writeFileSync(
    join(dir, 'playwright.config.ts'),
    `import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
import { authProjects } from 'playwright-multiauth';
${BROWSER}
export default defineConfig({
  ${sharedConfig(shape)}
  // The users in the setup project's order; the config's workers, which authProjects shares among them.
  projects: authProjects({ name: 'suite' }, { users: ${JSON.stringify(users.map((u) => u.name))}, workers: ${shape.workers} }),
});
`,
  );
  const api = users.filter((u) => !u.browser);
  const web = users.filter((u) => u.browser);
  writeFileSync(
    join(dir, 'multiauth.yaml'),
    `procedures:
  - name: token
    operations:
      - tech: http
        parameters:
          url: \${DEMO_URL}/auth/token
          method: POST
          body: { username: "{{username}}", password: "{{password}}" }
        extractions:
          - { name: access_token, location: body, key: data.auth.access_token }
    injections:
      - { location: header, key: Authorization, prefix: Bearer, variable: access_token }
users:
${api.map((u) => `  - { name: ${u.name}, procedure: token, credentials: { username: ${u.account}, password: ${u.account}-password } }`).join('\n')}
${web.length ? webdriverPreset(web) : ''}`,
  );
  const { api: apiSpec, page } = specs(shape, `import { test, expect } from 'playwright-multiauth';`, 'authedRequest');
  writeFileSync(join(dir, 'tests', 'api.spec.ts'), apiSpec);
  writeFileSync(join(dir, 'tests', 'page.spec.ts'), page);
  return { name: 'ours', dir, tests: users.length * (shape.apiTests + shape.pageTests), clean: () => rmSync(join(dir, '.auth'), { recursive: true, force: true }) };
}

function webdriverPreset(web: BenchUser[]): string {
  const user = (u: BenchUser) => `      - username: ${u.name}
        project:
          tests:
            - id: sign-in
              name: sign in on the login page
              commands:
                - { id: c1, command: open, target: "\${DEMO_URL}/login" }
                - { id: c2, command: type, target: "id=username", value: ${u.account} }
                - { id: c3, command: type, target: "id=password", value: ${u.account}-password }
                - { id: c4, command: click, target: "css=button[type=submit]" }
                - { id: c5, command: waitForElementPresent, target: "css=[data-signed-in]", value: "10000" }`;
  return `presets:
  - type: webdriver
    wait_for_seconds: 10
    users:
${web.map(user).join('\n')}
`;
}

/**
 * Theirs: Playwright's authentication guide (https://playwright.dev/docs/auth), "Multiple signed in
 * roles": a `setup` project matching `*.setup.ts`, one setup test per user that signs in and saves
 * `storageState` to `playwright/.auth/<user>.json` (API users through `request`, writing the Bearer
 * token to `<user>.token` since storageState cannot hold it; browser users on the login page), and
 * one project per user with `dependencies: ['setup']` and `use: { storageState }`; the token goes
 * into `extraHTTPHeaders` from the file the setup wrote.
 *
 * @example
 * const side = theirSide(join(base, "theirs"), HEADLINE);
 */
export function theirSide(dir: string, shape: SuiteShape): Side {
  writeCommon(dir);
  const users = usersOf(shape);
  writeFileSync(
    join(dir, 'playwright.config.ts'),
    `import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
${BROWSER}
const users = ${JSON.stringify(users.map((u) => u.name))};
export default defineConfig({
  ${sharedConfig(shape)}
  projects: [
    { name: 'setup', testMatch: /.*\\.setup\\.ts/ },
    ...users.map((user) => ({
      name: 'suite-' + user,
      testIgnore: /.*\\.setup\\.ts/,
      dependencies: ['setup'],
      use: { storageState: 'playwright/.auth/' + user + '.json' },
    })),
  ],
});
`,
  );
  const setups = users.map((u) =>
    u.browser
      ? `setup('authenticate as ${u.name}', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Username').fill('${u.account}');
  await page.getByLabel('Password').fill('${u.account}-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/app');
  await expect(page.locator('[data-signed-in]')).toBeAttached();
  await page.context().storageState({ path: 'playwright/.auth/${u.name}.json' });
});`
      : `setup('authenticate as ${u.name}', async ({ request }) => {
  const response = await request.post('/auth/token', { data: { username: '${u.account}', password: '${u.account}-password' } });
  expect(response.ok()).toBeTruthy();
  writeFileSync('playwright/.auth/${u.name}.token', (await response.json()).data.auth.access_token);
  await request.storageState({ path: 'playwright/.auth/${u.name}.json' });
});`,
  );
  writeFileSync(
    join(dir, 'tests', 'auth.setup.ts'),
    `import { writeFileSync } from 'node:fs';
import { test as setup, expect } from '@playwright/test';

${setups.join('\n\n')}
`,
  );
  // The token a setup test wrote, read when a test starts (the file does not exist yet while the specs load).
  writeFileSync(
    join(dir, 'tests', 'fixtures.ts'),
    `import { existsSync, readFileSync } from 'node:fs';
import { test as base } from '@playwright/test';
export { expect } from '@playwright/test';
export const test = base.extend({
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use, testInfo) => {
    const file = 'playwright/.auth/' + testInfo.project.name.replace(/^suite-/, '') + '.token';
    await use(existsSync(file) ? { ...extraHTTPHeaders, Authorization: 'Bearer ' + readFileSync(file, 'utf8') } : extraHTTPHeaders);
  },
});
`,
  );
  const { api, page } = specs(shape, `import { test, expect } from './fixtures';`, 'request');
  writeFileSync(join(dir, 'tests', 'api.spec.ts'), api);
  writeFileSync(join(dir, 'tests', 'page.spec.ts'), page);
  mkdirSync(join(dir, 'playwright', '.auth'), { recursive: true });
  return {
    name: 'theirs',
    dir,
    tests: users.length * (shape.apiTests + shape.pageTests + 1),
    clean: () => {
      rmSync(join(dir, 'playwright', '.auth'), { recursive: true, force: true });
      mkdirSync(join(dir, 'playwright', '.auth'), { recursive: true });
    },
  };
}
