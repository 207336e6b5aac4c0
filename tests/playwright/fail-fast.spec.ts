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

function spec(user: string): string {
  return `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: '${user}' });
for (let i = 0; i < 5; i++) test('${user} ' + i, async ({ authedRequest }) => {
  expect((await (await authedRequest.get('/whoami')).json()).user).toBe('${user}');
});
`;
}

test('a wrong password with 4 workers and 20 tests: one failed sign-in at the server, every test of the user fails with it', async ({ demo, demoEnv }) => {
  const before = demo.counters.endpoints['POST /auth/token'] ?? 0;
  const files: Record<string, string> = {
    'playwright.config.ts': inlineConfig('workers: 4, fullyParallel: true,'),
    'multiauth.yaml': CONFIG,
  };
  for (const n of [1, 2, 3]) files[`alice-${n}.spec.ts`] = spec('alice');
  files['bob.spec.ts'] = spec('bob');
  const result = await runInlineProject(files, { env: { ...demoEnv, MULTIAUTH_CACHE: 'off' } });

  expect(result.passed).toBe(5);
  expect(result.failed).toBe(15);
  // One failed sign-in for alice, one sign-in for bob: nothing more reached the token endpoint.
  expect((demo.counters.endpoints['POST /auth/token'] ?? 0) - before).toBe(2);
  expect(result.output.match(/signing in user "alice"/g)?.length).toBeGreaterThanOrEqual(15);
  expect(result.output).toContain('This sign-in failed earlier in this run');
  expect(result.output).not.toContain('not-alices-password');
});
