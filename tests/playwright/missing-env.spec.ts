import { test, expect, MULTI_CONFIG } from './support.js';
import { inlineConfig, runInlineProject } from '../support/inline-project.js';
import { runCli, STACK_FRAME } from '../support/cli.js';

test.describe.configure({ timeout: 180_000 });

// Issue 14, item 7: an unset environment variable fails only the users that need it; the other
// users' tests run, and `multiauth validate` still lists it as an error.

const CONFIG = MULTI_CONFIG.replace('credentials: { username: dave, password: dave-password }', 'credentials: { username: dave, password: "${DAVE_PASSWORD}" }');

test("an unset variable fails only the tests of the user that needs it; authProjects, the other users and validate are unaffected", async ({ demoEnv }) => {
  expect(CONFIG).toContain('${DAVE_PASSWORD}');
  const spec = (user: string) => `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: '${user}' });
test('${user} is signed in', async ({ authedRequest }) => {
  expect((await (await authedRequest.post('/whoami', { data: {} })).json()).user).toBe('${user}');
});
`;
  const result = await runInlineProject(
    {
      'playwright.config.ts': inlineConfig(`workers: 2, projects: [{ name: 'all' }, ...(await import('playwright-multiauth')).authProjects({ name: 'matrix', testMatch: /never-matches/ })],`),
      'multiauth.yaml': CONFIG,
      'alice.spec.ts': spec('alice'),
      'bob.spec.ts': spec('bob'),
      'dave.spec.ts': spec('dave'),
    },
    { env: demoEnv },
  );
  expect(result.passed).toBe(2);
  expect(result.failed).toBe(1);
  expect(result.output).toMatch(/multiauth\.yaml:\d+:\d+ {2}users\[0\]\.credentials\.password: environment variable DAVE_PASSWORD is not set/);
  // Shown once, as a warning naming who cannot sign in.
  expect(result.output).toMatch(/warning: users\[0\]\.credentials\.password: environment variable DAVE_PASSWORD is not set: user dave cannot sign in/);
  expect(result.output).not.toMatch(STACK_FRAME);

  const validate = runCli(['validate'], { cwd: result.dir, env: { DEMO_URL: demoEnv.DEMO_URL } });
  expect(validate.code).toBe(2);
  expect(validate.stderr).toContain('environment variable DAVE_PASSWORD is not set');
});
