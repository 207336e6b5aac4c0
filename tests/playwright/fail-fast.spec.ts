import { test, expect } from './support.js';
import { inlineConfig, runInlineProject } from '../support/inline-project.js';

test.describe.configure({ timeout: 180_000 });

// Issue 14, item 3: a failed sign-in is tried once per run, not once per test or per worker: real
// identity providers lock an account after a few failed logins.

const CONFIG = `
presets:
  - type: http
    request:
      url: \${DEMO_URL}/auth/token
      method: POST
      body: { username: "{{username}}", password: "{{password}}" }
    extractions: [{ name: token, location: body, key: data.auth.access_token }]
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: token }]
    users:
      - { username: alice, password: not-alices-password }
      - { username: bob, password: bob-password }
`;

/**
 * Five tests of `user`. `expectFailure`: each is declared with `test.fail`, so its failure is expected and
 * the worker goes on to its next test, where an unexpected failure stops the worker and the next test
 * starts a new one (a new process, that must learn of the failure from the run's memory too).
 */
function spec(user: string, expectFailure = false): string {
  return `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: '${user}' });
for (let i = 0; i < 5; i++) test${expectFailure ? '.fail' : ''}('${user} ' + i, async ({ authedRequest }) => {
  expect((await (await authedRequest.get('/whoami')).json()).user).toBe('${user}');
});
`;
}

interface Suite { title: string; specs: Array<{ title: string; tests: Array<{ expectedStatus: string; results: Array<{ status: string; errors: Array<{ message?: string }> }> }> }> }

test('a wrong password with 4 workers and 20 tests: one failed sign-in at the server, every test of the user fails with it', async ({ demo, demoEnv }) => {
  const before = demo.counters.endpoints['POST /auth/token'] ?? 0;
  const files: Record<string, string> = {
    'playwright.config.ts': inlineConfig('workers: 4, fullyParallel: true,'),
    'multiauth.yaml': CONFIG,
  };
  // alice-1's five failures are unexpected (each restarts its worker), the ten others expected: fewer
  // worker restarts, every test still failing on its own.
  for (const n of [1, 2, 3]) files[`alice-${n}.spec.ts`] = spec('alice', n > 1);
  files['bob.spec.ts'] = spec('bob');
  const result = await runInlineProject(files, { env: { ...demoEnv, MULTIAUTH_CACHE: 'off' } });

  // bob's 5 passed, alice-2 and alice-3's 10 failed as expected; alice-1's 5 failed.
  expect(result.passed, result.output).toBe(15);
  expect(result.failed).toBe(5);
  // One failed sign-in for alice, one sign-in for bob: nothing more reached the token endpoint.
  expect((demo.counters.endpoints['POST /auth/token'] ?? 0) - before).toBe(2);
  // Every test of alice ran and failed, with the sign-in's error; bob's passed.
  const outcomes = (result.report.suites as unknown as Suite[]).flatMap((suite) => suite.specs.map((s) => ({ title: s.title, test: s.tests[0] })));
  expect(outcomes).toHaveLength(20);
  const alice = outcomes.filter((o) => o.title.startsWith('alice'));
  expect(alice).toHaveLength(15);
  const errors = alice.map((o) => o.test?.results[0]?.errors.map((e) => e.message ?? '').join('\n') ?? '');
  for (const [i, o] of alice.entries()) {
    expect(o.test?.results[0]?.status, o.title).toBe('failed');
    expect(errors[i]).toContain('signing in user "alice"');
  }
  expect(errors.filter((text) => text.includes('This sign-in failed earlier in this run')).length).toBeGreaterThanOrEqual(1);
  for (const o of outcomes.filter((x) => x.title.startsWith('bob'))) expect(o.test?.results[0]?.status).toBe('passed');
  // alice-1's unexpected failures are printed as a user sees them.
  expect(result.output.match(/signing in user "alice"/g)?.length).toBeGreaterThanOrEqual(5);
  // Only the first of alice's tests made the sign-in: at least four of alice-1's five say so.
  expect(result.output).toContain('This sign-in failed earlier in this run');
  expect(result.output).not.toContain('not-alices-password');
  expect(JSON.stringify(result.report)).not.toContain('not-alices-password');
});
