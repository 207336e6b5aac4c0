import { test, expect } from './support.js';
import { inlineConfig, projectResults, runInlineProject, type InlineResult } from '../support/inline-project.js';
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

const ERIN_CONFIG = `
validation: { url: "\${DEMO_URL}/whoami" }
procedures:
  - name: looks-fine
    operations:
      # Answers 200 {"signedIn":false} to anyone: a login page that fails politely.
      - tech: http
        parameters: { url: "\${DEMO_URL}/auth/done", method: GET }
users:
  - { name: erin, procedure: looks-fine, credentials: { username: erin, password: erin-password } }
`;

const CACHE_CONFIG = `
validation: { url: "\${DEMO_URL}/whoami", match: '"user":' }
presets:
  - type: http
    request: { url: "\${DEMO_URL}/auth/token", method: POST, body: { username: "{{username}}", password: "{{password}}" } }
    extractions: [{ name: token, location: body, key: data.auth.access_token }]
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: token }]
    users: [{ username: alice, password: alice-password }, { username: bob, password: bob-password }]
`;

// One server, restarted between runs. Its first run holds both tests' cases side by side, as two
// projects with their own configs: erin's (a sign-in that only looks fine), and alice's and bob's
// (the cache the later runs read). The later runs run alice's and bob's project alone.
test.describe('validation against a demo server that restarts', () => {
  test.describe.configure({ mode: 'default' });
  let port: number;
  let env: Record<string, string>;
  let files: Record<string, string>;
  let run1: InlineResult;
  let firstSignIns: Record<string, number>;

  test.beforeAll(async () => {
    // A hook's timeout is not the file's: the run takes as long as a test of its own did.
    test.setTimeout(180_000);
    port = await freePort();
    env = { DEMO_URL: `http://127.0.0.1:${port}`, MULTIAUTH_CACHE: 'on' };
    files = {
      'playwright.config.ts': inlineConfig(`workers: 2,
  projects: [
    { name: 'cache', testMatch: /(alice|bob)\\.spec\\.ts/ },
    { name: 'erin', testMatch: /erin\\.spec\\.ts/, use: { authConfig: 'erin/multiauth.yaml' } },
  ],`),
      'multiauth.yaml': CACHE_CONFIG,
      'erin/multiauth.yaml': ERIN_CONFIG,
      'alice.spec.ts': spec('alice'),
      'bob.spec.ts': spec('bob'),
      'erin.spec.ts': spec('erin'),
    };
    const first = await startDemoServer({ port });
    run1 = await runInlineProject(files, { env }).finally(() => first.stop());
    firstSignIns = first.counters.signIns;
  });

  test('a sign-in the server answers 200 without a session fails with the check\'s status, not later in every test', () => {
    expect(projectResults(run1).erin, run1.output).toMatchObject({ passed: 0, failed: 2 });
    expect(run1.output).toMatch(/the session check failed: HTTP 401, expected a 2xx status/);
    expect(run1.output).toMatch(/while signing in user "erin", procedure "looks-fine", GET http:\/\/127\.0\.0\.1:\d+\/whoami, HTTP 401/);
    expect(run1.output).toContain('AUTH_VALIDATION');
    // Both answers, masked and cut: the check's, and the sign-in's that looked like a success.
    expect(run1.output).toContain('body: {"error":"unauthorized","message":"no credentials","via":null}');
    expect(run1.output).toContain(`the sign-in's last response: {"signedIn":false,"user":null,"code":null}`);
    expect(run1.output).not.toMatch(STACK_FRAME);
  });

  test('the server restarted between two runs: with the cache on, the second run checks, signs each user in once, and passes', async () => {
    expect(projectResults(run1).cache, run1.output).toMatchObject({ passed: 4, failed: 0 });
    expect(run1.passed).toBe(4);
    expect(firstSignIns).toEqual({ alice: 1, bob: 1 });

    // A new server on the same address: new signing keys, no memory of the tokens it issued.
    const second = await startDemoServer({ port });
    try {
      const run2 = await runInlineProject(files, { env, dir: run1.dir, args: ['--project=cache'] });
      expect(run2.passed).toBe(4);
      expect(run2.failed).toBe(0);
      expect(second.counters.signIns).toEqual({ alice: 1, bob: 1 });

      // A third run against the same server: the cached sessions pass their check, nobody signs in.
      const run3 = await runInlineProject(files, { env, dir: run1.dir, args: ['--project=cache'] });
      expect(run3.passed).toBe(4);
      expect(second.counters.signIns).toEqual({ alice: 1, bob: 1 });
      expect(JSON.stringify(run3.annotations)).toMatch(/reused from the session cache/);
    } finally {
      await second.stop();
    }
  });
});
