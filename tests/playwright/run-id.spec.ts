import { test, expect } from '@playwright/test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startDemoServer } from '../../fixtures/demo-server/index.js';
import { runInlineProject } from '../support/inline-project.js';
import { freePort } from '../support/ports.js';

// Issue 24, item 5: in a PID namespace (a container) the runner's pid is the same run after run.
// A run id made of it made every run one run: a sign-in that failed once stayed "failed earlier in
// this run" after the server came back. Each run here starts in its own namespace, as in Docker.

test.describe.configure({ timeout: 240_000 });

const IN_A_CONTAINER = ['unshare', '--pid', '--fork', '--mount-proc'];

test('two runs in a PID namespace, the server down in the first and up in the second: the second signs in', async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const files = {
    'multiauth.yaml': `
procedures:
  - name: login
    operations:
      - tech: http
        parameters: { url: ${url}/auth/token, method: POST, body: { username: "{{username}}", password: "{{password}}" } }
        extractions: [{ name: access_token, location: body, key: data.auth.access_token }]
    injections: [{ location: header, key: Authorization, prefix: Bearer }]
users:
  - { name: alice, procedure: login, credentials: { username: alice, password: alice-password } }
`,
    'whoami.spec.ts': `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'alice' });
test('alice', async ({ authedRequest }) => {
  expect((await authedRequest.get('${url}/whoami')).status()).toBe(200);
});
`,
    'run.spec.ts': `
import { test, expect } from 'playwright-multiauth';
test('the runner shared its run id', () => {
  const [pid, run] = (process.env.MULTIAUTH_RUNNER_RUN ?? '').split(':');
  expect(Number(pid)).toBe(process.ppid);
  expect(run).toMatch(/^[0-9a-f]{20}$/);
});
`,
  };
  const env = { MULTIAUTH_RETRIES: '0' };
  const first = await runInlineProject(files, { env, wrap: IN_A_CONTAINER, args: ['--workers=1'] });
  expect([first.passed, first.failed], first.output).toEqual([1, 1]);
  expect(first.output).toContain('AUTH_NETWORK');
  expect(readdirSync(join(first.dir, '.auth')).filter((name) => name.endsWith('.failed'))).toHaveLength(1);

  const demo = await startDemoServer({ port });
  try {
    const second = await runInlineProject(files, { env, wrap: IN_A_CONTAINER, args: ['--workers=1'], dir: first.dir });
    expect(second.passed, second.output).toBe(2);
    expect(second.output).not.toContain('failed earlier in this run');
    expect(demo.counters.signIns).toEqual({ alice: 1 });
  } finally {
    await demo.stop();
  }
});
