import { test as base } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compile } from '../../src/compile/compile.js';
import type { Plan } from '../../src/compile/plan.js';
import { loadConfig } from '../../src/config/index.js';
import { startDemoServer, type DemoServer } from '../../fixtures/demo-server/index.js';

/**
 * Playwright Test with a worker-scoped `demo`: the demo server, started once per worker on a free
 * port and stopped after the worker's last test.
 *
 * @example
 * test('alice signs in', async ({ demo }) => { ... demo.url ... });
 */
export const test = base.extend<object, { demo: DemoServer }>({
  demo: [
    async ({}, use) => {
      const demo = await startDemoServer();
      await use(demo);
      await demo.stop();
    },
    { scope: 'worker' },
  ],
});

export { expect } from '@playwright/test';

/**
 * Writes `text` to a temporary config file, loads it as users do (env substitution, validation)
 * and compiles it. `{{demo}}`-free: put the demo URL in with a template literal.
 *
 * @example
 * const plan = planFromYaml(`users: [{ name: alice, credentials: { username: alice, password: x } }]`);
 */
export function planFromYaml(text: string, fileName = 'multiauth.yaml'): Plan {
  const dir = mkdtempSync(join(tmpdir(), 'multiauth-e2e-'));
  try {
    const file = join(dir, fileName);
    writeFileSync(file, text);
    return compile(loadConfig(file, { env: {} }).config);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Writes a config into a fresh temporary directory and returns its path and a cleanup.
 *
 * @example
 * const { file, dir, remove } = writeTempConfig(yaml);
 */
export function writeTempConfig(text: string, fileName = 'multiauth.yaml'): { dir: string; file: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'multiauth-cli-'));
  const file = join(dir, fileName);
  writeFileSync(file, text);
  return { dir, file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
