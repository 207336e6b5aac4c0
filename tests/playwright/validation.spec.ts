import { test, expect } from './support.js';
import { inlineConfig, runInlineProject } from '../support/inline-project.js';
import { startDemoServer } from '../../fixtures/demo-server/index.js';
import { freePort } from '../support/ports.js';
import { STACK_FRAME } from '../support/cli.js';

test.describe.configure({ timeout: 180_000 });

// Issue 14, item 1: `validation` says how to know a session works. A sign-in that the server
// answers 200 without signing anyone in is a failed sign-in; a cached session that a restarted
// server has forgotten is replaced by one new sign-in per user, once across workers.

const spec = (user: string) => `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: '${user}' });
for (let i = 0; i < 2; i++) test('${user} ' + i, async ({ authedRequest }) => {
  expect((await (await authedRequest.get('/whoami')).json()).user).toBe('${user}');
});
`;

test('a sign-in the server answers 200 without a session fails with the check\'s status, not later in every test', async ({ demoEnv }) => {
  const result = await runInlineProject(
    {
      'multiauth.yaml': `
validation: { url: "\${DEMO_URL}/whoami" }
procedures:
  - name: looks-fine
    operations:
      # Answers 200 {"signedIn":false} to anyone: a login page that fails politely.
      - tech: http
        parameters: { url: "\${DEMO_URL}/auth/done", method: GET }
users:
  - { name: erin, procedure: looks-fine, credentials: { username: erin, password: erin-password } }
`,
      'erin.spec.ts': spec('erin'),
    },
    { env: demoEnv },
  );
  expect(result.failed).toBe(2);
  expect(result.output).toMatch(/the session check failed: HTTP 401, expected a 2xx status/);
  expect(result.output).toMatch(/while signing in user "erin", procedure "looks-fine", GET http:\/\/127\.0\.0\.1:\d+\/whoami, HTTP 401/);
  expect(result.output).toContain('AUTH_VALIDATION');
  // Both answers, masked and cut: the check's, and the sign-in's that looked like a success.
  expect(result.output).toContain('body: {"error":"unauthorized","message":"no credentials","via":null}');
  expect(result.output).toContain(`the sign-in's last response: {"signedIn":false,"user":null,"code":null}`);
  expect(result.output).not.toMatch(STACK_FRAME);
});

test('the server restarted between two runs: with the cache on, the second run checks, signs each user in once, and passes', async () => {
  const port = await freePort();
  const env = { DEMO_URL: `http://127.0.0.1:${port}`, MULTIAUTH_CACHE: 'on' };
  const files = {
    'playwright.config.ts': inlineConfig('workers: 2,'),
    'multiauth.yaml': `
validation: { url: "\${DEMO_URL}/whoami", match: '"user":' }
presets:
  - type: http
    request: { url: "\${DEMO_URL}/auth/token", method: POST, body: { username: "{{username}}", password: "{{password}}" } }
    extractions: [{ name: token, location: body, key: data.auth.access_token }]
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: token }]
    users: [{ username: alice, password: alice-password }, { username: bob, password: bob-password }]
`,
    'alice.spec.ts': spec('alice'),
    'bob.spec.ts': spec('bob'),
  };

  const first = await startDemoServer({ port });
  const run1 = await runInlineProject(files, { env }).finally(() => first.stop());
  expect(run1.passed).toBe(4);
  expect(first.counters.signIns).toEqual({ alice: 1, bob: 1 });

  // A new server on the same address: new signing keys, no memory of the tokens it issued.
  const second = await startDemoServer({ port });
  try {
    const run2 = await runInlineProject(files, { env, dir: run1.dir });
    expect(run2.passed).toBe(4);
    expect(second.counters.signIns).toEqual({ alice: 1, bob: 1 });

    // A third run against the same server: the cached sessions pass their check, nobody signs in.
    const run3 = await runInlineProject(files, { env, dir: run1.dir });
    expect(run3.passed).toBe(4);
    expect(second.counters.signIns).toEqual({ alice: 1, bob: 1 });
    expect(JSON.stringify(run3.annotations)).toMatch(/reused from the session cache/);
  } finally {
    await second.stop();
  }
});
