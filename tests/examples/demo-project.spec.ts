import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

interface Report {
  stats: { expected: number; unexpected: number; skipped: number };
  suites: Suite[];
}
interface Suite {
  specs: Array<{ title: string; tests: Array<{ projectName: string; annotations: Array<{ type: string; description: string }> }> }>;
  suites?: Suite[];
}

test('the demo (npm run demo) passes as every user, each signed in once per run', async () => {
  test.setTimeout(180_000);
  const port = await freePort();
  const env: Record<string, string | undefined> = { ...process.env, DEMO_PORT: String(port), DEMO_REPORTER: 'json', CI: '1' };
  // Whatever the developer's shell says, the demo decides these itself.
  for (const name of ['DEMO_URL', 'MULTIAUTH_CACHE', 'MULTIAUTH_CONFIG', 'MULTIAUTH_CACHE_DIR']) delete env[name];
  for (const name of Object.keys(env)) if (name.startsWith('PLAYWRIGHT_') || name.startsWith('TEST_')) delete env[name];
  const child = spawn(process.execPath, [join(root, 'node_modules/@playwright/test/cli.js'), 'test', '-c', 'examples/demo/playwright.config.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise((r) => child.on('close', r));
  expect(code, stderr).toBe(0);
  const report = JSON.parse(stdout) as Report;
  expect(report.stats).toMatchObject({ unexpected: 0, skipped: 0 });
  expect(report.stats.expected).toBeGreaterThanOrEqual(11);

  const tests = (function flatten(suites: Suite[]): Suite['specs'][number]['tests'] {
    return suites.flatMap((s) => [...s.specs.flatMap((spec) => spec.tests), ...flatten(s.suites ?? [])]);
  })(report.suites);
  expect(new Set(tests.map((t) => t.projectName))).toEqual(new Set(['roles-alice', 'roles-bob', 'roles-carol', 'roles-dave', 'scenarios']));
  const notes = tests.flatMap((t) => t.annotations).filter((a) => a.type === 'multiauth').map((a) => a.description);
  for (const user of ['alice', 'bob', 'carol', 'dave']) {
    expect(notes.filter((n) => n === `${user}: signed in`), `${user} signs in once`).toHaveLength(1);
  }
});
