import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, MULTI_CONFIG } from './support.js';
import { runInlineProject } from '../support/inline-project.js';

test.describe.configure({ timeout: 180_000 });

/** A user nobody tests whose procedure uses a variable nothing defines: a warning, not an error. */
const WARNED_CONFIG = MULTI_CONFIG.replace(
  'users:\n  - name: dave',
  `  - name: otp-login
    operations:
      - tech: http
        parameters: { url: "\${DEMO_URL}/auth/token", method: POST, body: { otp: "{{otp}}" } }
users:
  - { name: zed, procedure: otp-login, credentials: { username: zed, password: zed-password } }
  - name: dave`,
);

function userSpec(user: string): string {
  return `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: '${user}' });
test('${user}', async ({ authedRequest }, testInfo) => {
  testInfo.annotations.push({ type: 'worker', description: String(testInfo.workerIndex) });
  expect((await (await authedRequest.get('/whoami')).json()).user).toBe('${user}');
});
`;
}

const WARNING = /\{\{otp\}\} is never defined/g;

test('config warnings are shown once per run, by one of the workers that open the config', async ({ demoEnv }) => {
  const files = { 'multiauth.yaml': WARNED_CONFIG, 'alice.spec.ts': userSpec('alice'), 'bob.spec.ts': userSpec('bob') };
  const result = await runInlineProject(files, { env: demoEnv });
  expect(result.passed, result.output).toBe(2);
  // Both workers opened the config; one of them printed its warnings.
  const workers = Object.values(result.annotations).flat().filter((a) => a.type === 'worker').map((a) => a.description);
  expect(new Set(workers).size).toBe(2);
  expect(result.output.match(WARNING)).toHaveLength(1);
  expect(result.output).toContain('playwright-multiauth: 1 warning in');
  expect(result.output).toMatch(/multiauth\.yaml:\d+:\d+ {2}warning: procedures\[1\]\.operations\[0\]: \{\{otp\}\} is never defined/);

  // The next run shows them again (once); the marker that made one worker print holds nothing.
  const again = await runInlineProject({}, { env: demoEnv, dir: result.dir });
  expect(again.passed, again.output).toBe(2);
  expect(again.output.match(WARNING)).toHaveLength(1);
  const markers = readdirSync(join(result.dir, '.auth')).filter((name) => name.startsWith('first-in-run-'));
  // Two runs, each with one marker for its warnings and one for its tidy-up of .auth/.
  expect(markers).toHaveLength(4);
  for (const name of markers) {
    expect(readFileSync(join(result.dir, '.auth', name), 'utf8')).toBe('');
    expect(statSync(join(result.dir, '.auth', name)).mode & 0o777).toBe(0o600);
  }
});
