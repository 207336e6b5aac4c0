import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '../../support/demo.js';
import { CHROMIUM, installEnv, run, DEMO_CONFIG as CONFIG } from '../../support/packed-package.js';

// Issue 25, item 1: every way npm-family tools install the package runs a signed-in suite. The link
// shapes (a directory dependency, `npm link`, `file:`, a workspace member) put the package at a real
// path outside node_modules, where Playwright compiles it as the project's own code (to CommonJS in a
// CommonJS project) and where Node does not find the project's @playwright/test; they alternate
// between ES module and CommonJS projects, so each way of loading is proven. One child run a shape,
// one spec file a shape (issue 36: a file's tests stay within 90 s); this module is what they share.

/** The signed-in suite every shape runs: an API test and a page test as alice. */
const SUITE: Record<string, string> = {
  'playwright.config.ts': `
import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: 'tests',
  outputDir: 'test-results',
  timeout: 120_000,
  reporter: [['list']],
  use: { baseURL: process.env.DEMO_URL, launchOptions: { executablePath: process.env.CHROMIUM } },
});
`,
  'multiauth.yaml': CONFIG,
  '.env': 'ALICE_PASSWORD=alice-password\n',
  'tests/api.spec.ts': `
import { test, expect, authUsers } from 'playwright-multiauth';
test.use({ authUser: 'alice' });
test('api: alice is signed in', async ({ authedRequest }) => {
  expect(authUsers()).toEqual(['alice']);
  const me: { user: string } = await (await authedRequest.get('/whoami')).json();
  expect(me.user).toBe('alice');
});
`,
  'tests/page.spec.ts': `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'alice' });
test('page: requests of the page carry alice', async ({ page }) => {
  await page.goto('/');
  const me = await page.evaluate(async () => (await fetch('/whoami')).json());
  expect(me.user).toBe('alice');
});
`,
};

/** How a project's package.json has Node load its .js files. */
export type ModuleType = 'module' | 'commonjs';

/** A project's package.json: a module type and dependencies. */
export function manifest(name: string, type: ModuleType, dependencies: Record<string, string> = {}): string {
  return JSON.stringify({ name, version: '1.0.0', private: true, type, dependencies }, null, 2);
}

/** Writes the signed-in suite into `project` (beside its package.json). */
export function writeSuite(project: string): void {
  for (const [name, text] of Object.entries(SUITE)) {
    mkdirSync(join(project, name, '..'), { recursive: true });
    writeFileSync(join(project, name), text);
  }
}

/**
 * Runs the suite of `project` with the Playwright Test installed at `playwrightTest` (one worker
 * unless told), and checks both tests passed.
 */
export async function runSuite(project: string, playwrightTest: string, demoUrl: string, { workers = 1 } = {}): Promise<void> {
  const suite = await run(process.execPath, [join(playwrightTest, 'cli.js'), 'test', `--workers=${workers}`], project, { ...installEnv(), DEMO_URL: demoUrl, CHROMIUM });
  expect(suite.output).not.toContain('No tests found');
  expect(suite.output).toContain('2 passed');
  expect(suite.code, suite.output).toBe(0);
}

/**
 * Checks a successful install, with its log as the message, that kept what the project had
 * installed (the seeded toolchain): npm changed no package, it only added ours and its dependencies.
 */
export function expectInstalled(step: { code: number | null; output: string }): void {
  expect(step.code, step.output).toBe(0);
  expect(step.output).not.toMatch(/changed \d+ packages?/);
}

/** `node_modules/playwright-multiauth` of `project` is a link to `target` (a real path outside node_modules). */
export function expectLinkedTo(project: string, target: string): void {
  expect(realpathSync(join(project, 'node_modules', 'playwright-multiauth'))).toBe(realpathSync(target));
  expect(realpathSync(target)).not.toContain('/node_modules/');
}
