import { test, expect } from '@playwright/test';
import { join } from 'node:path';
import { CONFIG_LIMITS } from '../../src/config/limits.js';
import { DOTENV_MAX_BYTES } from '../../src/core/dotenv.js';
import { baseUrlMismatch } from '../../src/playwright/base-url.js';
import { multiauthEnv } from '../../src/playwright/multiauth-env.js';
import { WorkerAuth } from '../../src/playwright/worker-auth.js';
import { planOrigins } from '../../src/sessions/plan-origins.js';
import { runInlineProject } from '../support/inline-project.js';
import { planFromYaml } from '../support/plan.js';
import { thrown } from '../support/errors.js';
import { removeTempDirs, writeFiles } from '../support/temp-files.js';

// Item "one base URL": the config and playwright.config.ts read BASE_URL from one .env, and a run
// whose baseURL is at none of the config's sign-in and validation origins says so once.

test.afterAll(removeTempDirs);

const CONFIG = `validation: { url: "\${BASE_URL}/me" }
users:
  - name: alice
    credentials: { headers: [{ name: X-User, values: [alice] }] }
`;

test('planOrigins: the origins of sign-in requests and validations, once each, templated URLs left out', () => {
  const plan = planFromYaml(`
validation: { url: "http://app.test:3000/me" }
procedures:
  - name: login
    operations:
      - tech: http
        parameters: { url: "http://app.test:3000/login?next=/x", method: POST }
      - tech: http
        parameters: { url: "{{idp}}/token", method: POST }
      - tech: http
        parameters: { url: "https://idp.test/token", method: POST }
users:
  - { name: alice, procedure: login, variables: [{ name: idp, value: "https://other.test" }] }
`);
  expect(planOrigins(plan)).toEqual(['http://app.test:3000', 'https://idp.test']);
});

test('baseUrlMismatch: silent when any origin or scope entry is baseURL\'s, or nothing is known; else names both and the fix', () => {
  const file = '/repo/multiauth.yaml';
  expect(baseUrlMismatch(undefined, ['http://a.test'], [], file)).toBeUndefined();
  expect(baseUrlMismatch('http://a.test/app/', ['http://a.test', 'https://idp.test'], [], file)).toBeUndefined();
  expect(baseUrlMismatch('http://b.test', [], [], file)).toBeUndefined();
  expect(baseUrlMismatch('http://b.test', ['https://idp.test'], ['http://b.test'], file)).toBeUndefined();
  expect(baseUrlMismatch('http://b.test', ['https://idp.test'], ['http://b.test/api/*'], file)).toBeUndefined();
  const text = baseUrlMismatch('http://user:pw@localhost:4000/?token=t', ['http://localhost:3000'], [], file) ?? '';
  expect(text).toContain("Playwright's baseURL is at http://localhost:4000, but the users of /repo/multiauth.yaml sign in and are validated at http://localhost:3000");
  expect(text).toContain('Recommended fix: read both from one place: `const env = multiauthEnv();`');
  expect(text).not.toMatch(/pw|token=t/);
});

test('the worker warns once per run when baseURL is elsewhere, and not when it matches', async () => {
  const dir = writeFiles({ 'multiauth.yaml': CONFIG, '.env': 'BASE_URL=http://127.0.0.1:3000\n' });
  const env = { MULTIAUTH_RUN_ID: `base-url-${Date.now()}` };
  const warnings: string[] = [];
  const worker = (baseURL: string) => new WorkerAuth({ baseDir: dir, env, baseURL, warn: (t) => warnings.push(t) });

  const matching = worker('http://127.0.0.1:3000/');
  await matching.session('alice');
  expect(warnings).toEqual([]);

  const first = worker('http://127.0.0.1:4000');
  await first.session('alice');
  await first.session('alice');
  // Another worker of the same run: the warning was shown already.
  await worker('http://127.0.0.1:4000').session('alice');
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain("baseURL is at http://127.0.0.1:4000, but the users of");
  expect(warnings[0]).toContain('validated at http://127.0.0.1:3000');
  await Promise.all([matching.close(), first.close()]);
});

test('multiauthEnv: .env beside the config under the real environment, process.env untouched; no config is a clear error', () => {
  const dir = writeFiles({ 'e2e/multiauth.yaml': CONFIG, 'e2e/.env': 'BASE_URL=http://127.0.0.1:3000\nSHARED_NAME=from-dotenv\n' });
  process.env.SHARED_NAME = 'from-environment';
  try {
    const env = multiauthEnv({ config: join(dir, 'e2e/multiauth.yaml') });
    expect(env.BASE_URL).toBe('http://127.0.0.1:3000');
    expect(env.SHARED_NAME).toBe('from-environment');
    expect(process.env.BASE_URL).toBeUndefined();
    expect(Object.isFrozen(env)).toBe(true);
  } finally {
    delete process.env.SHARED_NAME;
  }
  const missing = thrown(() => multiauthEnv({ config: join(dir, 'e2e/multiauth.yml') }));
  expect(missing.code).toBe('CONFIG_NOT_FOUND');
  expect(missing.message).toContain("multiauthEnv({ config: 'path/to/multiauth.yaml' })");
  // Found from the calling file: this spec's Playwright config folder (the repo) has no config.
  expect(thrown(() => multiauthEnv()).code).toBe('CONFIG_NOT_FOUND');
  expect(DOTENV_MAX_BYTES).toBe(CONFIG_LIMITS.fileBytes);
});

test('in a run: playwright.config.ts reads BASE_URL with multiauthEnv(), and a project whose baseURL is elsewhere is warned about once', async () => {
  test.setTimeout(180_000);
  const result = await runInlineProject({
    'multiauth.yaml': CONFIG,
    '.env': 'BASE_URL=http://127.0.0.1:3000\n',
    'playwright.config.ts': `
import { defineConfig } from '@playwright/test';
import { multiauthEnv } from 'playwright-multiauth';
const env = multiauthEnv();
export default defineConfig({
  outputDir: 'test-results',
  fullyParallel: true,
  reporter: [['json', { outputFile: 'report.json' }], ['list']],
  projects: [
    { name: 'same', use: { baseURL: env.BASE_URL } },
    { name: 'other', use: { baseURL: 'http://127.0.0.1:4000' } },
  ],
});
`,
    'a.spec.ts': `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'alice' });
for (const n of [1, 2, 3]) {
  test('signed in ' + n, async ({ authSession, baseURL }, testInfo) => {
    expect(authSession?.user).toBe('alice');
    if (testInfo.project.name === 'same') expect(baseURL).toBe('http://127.0.0.1:3000');
  });
}
`,
  });
  expect(result.output).toContain('6 passed');
  expect(result.output.match(/Playwright's baseURL is at/g)).toHaveLength(1);
  expect(result.output).toContain("Playwright's baseURL is at http://127.0.0.1:4000, but the users of");
});
