import { test, expect, MULTI_CONFIG } from './support.js';
import { inlineConfig, readSteps, runInlineProject, STEPS_REPORTER } from '../support/inline-project.js';

/** A user whose password the demo server refuses: a failed sign-in. */
const MALLORY = `
  - type: http
    request:
      url: \${DEMO_URL}/auth/token
      method: POST
      body: { username: "{{username}}", password: "{{password}}" }
    extractions:
      - { name: token, location: body, key: data.auth.access_token }
    injections:
      - { location: header, key: Authorization, prefix: Bearer, variable: token }
    users:
      - { username: mallory, password: mallory-guessed-wrong }`;

interface JsonStep {
  title: string;
  error?: { message?: string };
  steps?: JsonStep[];
}
interface JsonTest {
  annotations: Array<{ type: string; description?: string }>;
  results: Array<{ status: string; steps?: JsonStep[]; errors: Array<{ message?: string }>; stderr: Array<{ text?: string }> }>;
}

/** The project's tests by title (one test per title in this project). */
function testsOf(report: { suites: unknown[] }): Record<string, JsonTest> {
  const found: Record<string, JsonTest> = {};
  const visit = (suite: { specs: Array<{ title: string; tests: JsonTest[] }>; suites?: unknown[] }): void => {
    for (const spec of suite.specs) found[spec.title] = spec.tests[0]!;
    (suite.suites as (typeof suite)[] | undefined)?.forEach(visit);
  };
  (report.suites as Parameters<typeof visit>[0][]).forEach(visit);
  return found;
}

// One child run, in a project whose browser does not exist: signInAs(...).request needs none, its
// page says what to do; the report has the sign-in steps, the user, the failed sign-in and the
// warning of a file that overrides its authProjects project's user.
test('the report shows each sign-in, its user and failure; signInAs needs a browser only for its page', async ({ demoEnv }) => {
  // One child run of six tests over two workers: a few seconds alone, much more on a busy machine.
  test.setTimeout(180_000);
  const result = await runInlineProject(
    {
      'multiauth.yaml': MULTI_CONFIG.replace('presets:', `presets:${MALLORY}`),
      'steps-reporter.ts': STEPS_REPORTER,
      'playwright.config.ts': inlineConfig(`projects: [
    { name: 'api', testIgnore: /matrix|plain/ },
    ...(await import('playwright-multiauth')).authProjects({ name: 'matrix', testMatch: /(matrix|plain)\\.spec\\.ts/ }, { users: ['bob'] }),
  ],`)
        .replace("['list']]", "['list'], ['./steps-reporter.ts']]")
        .replace(/executablePath: [^}]*/, "executablePath: '/nonexistent/chromium' "),
      'api.spec.ts': `
import { test, expect } from 'playwright-multiauth';
test('bob by request only', async ({ signInAs }) => {
  const bob = await signInAs('bob');
  expect((await (await bob.request.get('/whoami')).json()).user).toBe('bob');
});
test('bob asks for a page', async ({ signInAs }) => {
  const { request, page } = await signInAs('bob');
  expect((await request.get('/whoami')).ok()).toBe(true);
  await page;
});
test.describe('as alice', () => {
  test.use({ authUser: 'alice' });
  // clientCertificates first: it used to open the config, and the report showed the sign-in as its time.
  test('alice by authedRequest', async ({ clientCertificates, authedRequest }) => {
    void clientCertificates;
    expect((await (await authedRequest.get('/whoami')).json()).user).toBe('alice');
  });
});
test.describe('as mallory', () => {
  test.use({ authUser: 'mallory' });
  test('mallory is refused', async ({ authedRequest }) => { await authedRequest.get('/whoami'); });
});
`,
      'plain.spec.ts': `
import { expect, test as base } from '@playwright/test';
base('takes the plain test', async ({ request }) => {
  expect((await request.get('/whoami')).status()).toBe(401);
});
`,
      'matrix.spec.ts': `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'alice' });
test('overrides the project user', async ({ authedRequest }) => {
  expect((await (await authedRequest.get('/whoami')).json()).user).toBe('alice');
});
test('overrides it again', async ({ authedRequest }) => {
  expect((await authedRequest.get('/whoami')).ok()).toBe(true);
});
`,
    },
    { env: demoEnv },
  );
  const tests = testsOf(result.report);
  const steps = readSteps(result.dir);
  const status = (title: string) => tests[title]?.results[0]?.status;
  const types = (title: string) => tests[title]?.annotations.map((a) => `${a.type}: ${a.description}`);

  // No browser, yet the request of signInAs works, and its step is in the JSON report.
  expect(status('bob by request only'), result.output).toBe('passed');
  const bobSteps = tests['bob by request only']!.results[0]!.steps ?? [];
  expect(bobSteps.map((s) => s.title)).toContain('sign in as bob');
  expect(bobSteps.find((s) => s.title === 'sign in as bob')?.steps?.[0]?.title).toMatch(/^bob: (signed in|signed in ahead by the runner|reused in this worker|reused from the session cache), \d+ ms$/);
  expect(types('bob by request only')).toContain('multiauth-user: bob');

  // Its page: the browser does not start, and the error says what to do instead.
  expect(status('bob asks for a page')).toBe('failed');
  const noBrowser = tests['bob asks for a page']!.results[0]!.errors.map((e) => e.message).join('\n');
  expect(noBrowser).toContain("signInAs('bob'): its context and page need a browser, and none starts");
  expect(noBrowser).toContain('no browser at /nonexistent/chromium');
  expect(noBrowser).toContain('Recommended fix: Use only `.request` in a test that needs no browser');
  expect(noBrowser).toContain('[BROWSER_STEP_FAILED]');
  expect(noBrowser).not.toMatch(/^\s+at /m);

  // authUser: the sign-in is a step of its own in the hooks, not a fixture's time.
  expect(status('alice by authedRequest')).toBe('passed');
  expect(steps['alice by authedRequest']).toContain('Before Hooks > sign in as alice');
  // alice may have signed in for the other project's worker already.
  const how = '(signed in|signed in ahead by the runner|reused in this worker|reused from the session cache)';
  expect(steps['alice by authedRequest']?.join('\n')).toMatch(new RegExp(`^Before Hooks > sign in as alice > alice: ${how}, \\d+ ms$`, 'm'));
  expect(steps['alice by authedRequest']?.join('\n')).not.toContain('Fixture "clientCertificates"');
  expect(types('alice by authedRequest')).toEqual(['multiauth-user: alice', expect.stringMatching(new RegExp(`^multiauth: alice: ${how}$`))]);

  // A failed sign-in: its step failed, and the test says so, naming the user, the code and the URL, not the password.
  expect(status('mallory is refused')).toBe('failed');
  expect(steps['mallory is refused']).toContain('Before Hooks > sign in as mallory (failed)');
  const failed = tests['mallory is refused']!.annotations.filter((a) => a.type === 'multiauth-sign-in-failed');
  expect(failed).toHaveLength(1);
  expect(failed[0]!.description).toMatch(/^mallory: \[AUTH_HTTP_STATUS\] .*while signing in user "mallory", .*POST http:\/\/127\.0\.0\.1:\d+\/auth\/token, HTTP 401/);
  expect(JSON.stringify(result.report)).not.toContain('mallory-guessed-wrong');

  // The file's authUser overrode the matrix project's: both tests say so, the console once.
  for (const title of ['overrides the project user', 'overrides it again']) {
    expect(status(title)).toBe('passed');
    expect(types(title)).toContain(
      `multiauth-user-overridden: project "matrix-bob" is bob's (authProjects), but the test runs as alice: a test.use({ authUser }) in its file or describe overrides the project's user. Leave authUser to the project in the matrix's specs (signInAs for a second user), or keep the file out of the matrix (testIgnore).`,
    );
  }
  // The file's tests run in one worker, in order: the first takes alice's session (a step), the
  // second finds it in the worker's memory: no step, a round trip to the runner less, the same annotations.
  expect(steps['overrides the project user']).toContain('Before Hooks > sign in as alice');
  expect(steps['overrides it again']?.filter((s) => s.includes('sign in as'))).toEqual([]);
  expect(types('overrides it again')).toEqual(expect.arrayContaining(['multiauth-user: alice', 'multiauth: alice: reused in this worker']));
  const warned = Object.values(tests).flatMap((t) => t.results.flatMap((r) => r.stderr.map((s) => s.text ?? '')));
  expect(warned.filter((text) => text.includes('playwright-multiauth: warning: matrix.spec.ts: project "matrix-bob" is bob\'s'))).toHaveLength(1);

  // A file of the matrix that takes Playwright's own test runs signed out: the runner says so, once.
  expect(status('takes the plain test')).toBe('passed');
  const plain = result.output.split('\n').filter((line) => line.includes("takes `test` from '@playwright/test'"));
  expect(plain).toEqual([
    `playwright-multiauth: warning: plain.spec.ts takes \`test\` from '@playwright/test', so its tests run signed out in "matrix-bob" (authUser, authedRequest and the signed-in page come with this package's test). Import { test, expect } from 'playwright-multiauth' (or from a file that extends it), or keep the file out of the matrix (testIgnore).`,
  ]);
  expect(result.failed).toBe(2);
});
