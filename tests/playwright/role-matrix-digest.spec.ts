import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { matrixConfig } from '../../src/playwright/role-matrix.js';
import { cacheDirFor, quickConfigKey, readRunDigest } from '../../src/sessions/index.js';
import { runNodeChild } from '../support/node-child.js';
import { ROOT } from '../support/root.js';
import { copyPackage, packOnce } from '../support/packed-package.js';
import { tempFiles, writeTempConfig } from '../support/temp-files.js';

const users = (names: string[]) => `users:\n${names.map((n) => `  - { name: ${n}, credentials: { username: ${n}, password: pw } }`).join('\n')}\n`;

/** `work` with these variables set in this process (matrixConfig reads process.env, as in a runner). */
function withEnv<T>(vars: Record<string, string>, work: () => T): T {
  const before = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return work();
  } finally {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

test("the role matrix of a later run takes the user names from the last run's digest of the same config, without opening it", async () => {
  const config = writeTempConfig(users(['alice', 'bob']));
  // A Node child started with this fails at once: matrixConfig succeeds with it only without one.
  const noChild = { NODE_OPTIONS: '--require=/nonexistent/multiauth-no-child.cjs' };
  try {
    expect(withEnv({ MULTIAUTH_RUN_ID: 'run-a' }, () => matrixConfig({ config: config.file }, config.dir).users)).toEqual(['alice', 'bob']);
    expect(withEnv({ MULTIAUTH_RUN_ID: 'run-b', ...noChild }, () => matrixConfig({ config: config.file }, config.dir).users)).toEqual(['alice', 'bob']);
    // Left for this run unchecked: the run's first worker still opens and checks the config.
    const cacheDir = cacheDirFor(config.file, process.env, config.dir);
    expect(readRunDigest(cacheDir, quickConfigKey(config.file, process.env), 'run-b')).toMatchObject({ run: 'run-b', users: ['alice', 'bob'], checked: false });

    // Another text is another key: the config is opened (in a child) again, and names the new user.
    writeFileSync(config.file, users(['alice', 'bob', 'carol']));
    expect(() => withEnv({ MULTIAUTH_RUN_ID: 'run-c', ...noChild }, () => matrixConfig({ config: config.file }, config.dir))).toThrow(/opens the config for the role matrix failed/);
    expect(withEnv({ MULTIAUTH_RUN_ID: 'run-c' }, () => matrixConfig({ config: config.file }, config.dir).users)).toEqual(['alice', 'bob', 'carol']);
  } finally {
    config.remove();
  }
});

test('installed under node_modules, the first run opens the config in the runner itself: no Node child, the same users and the same error with its place', async () => {
  test.setTimeout(300_000);
  const project = tempFiles({
    'ok/multiauth.yaml': users(['alice', 'bob']),
    'bad/multiauth.yaml': 'users:\n  - { name: alice, credentials: { username: a, password: pw }, colour: blue }\n',
  });
  try {
    const installed = copyPackage(await packOnce(), join(project.dir, 'node_modules', 'playwright-multiauth'));
    // The project's own Playwright Test, which the package's fixtures load.
    mkdirSync(join(project.dir, 'node_modules', '@playwright'));
    symlinkSync(join(ROOT, 'node_modules', '@playwright', 'test'), join(project.dir, 'node_modules', '@playwright', 'test'));
    // Any Node child of the script fails at once: the script succeeds only without one.
    const script = `
const { matrixConfig } = await import(${JSON.stringify(join(installed, 'dist', 'playwright', 'role-matrix.cjs'))});
process.env.NODE_OPTIONS = '--require=/nonexistent/multiauth-no-child.cjs';
const out = { users: matrixConfig({}, ${JSON.stringify(join(project.dir, 'ok'))}).users };
try { matrixConfig({}, ${JSON.stringify(join(project.dir, 'bad'))}); } catch (error) { out.error = error.message; }
console.log(JSON.stringify(out));
`;
    const run = await runNodeChild(['--input-type=module', '-e', script], { cwd: project.dir, env: { PATH: process.env.PATH, MULTIAUTH_RUN_ID: 'run-installed' }, timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as { users: string[]; error?: string };
    expect(out.users).toEqual(['alice', 'bob']);
    expect(out.error).toMatch(/multiauth\.yaml:2:\d+/);
    expect(out.error).toContain('colour');
    expect(out.error).not.toContain('opens the config for the role matrix');
  } finally {
    project.remove();
  }
});
