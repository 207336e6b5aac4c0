import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test, expect } from '../support/demo.js';
import { ROOT } from '../support/root.js';
import { tempFiles } from '../support/temp-files.js';
import { CHROMIUM, copyPackage, installEnv, packOnce, PINNED, run, type Packed, DEMO_CONFIG as CONFIG } from '../support/packed-package.js';

// Issue 25, item 1: every way npm-family tools install the package runs a signed-in suite. The link
// shapes (a directory dependency, `npm link`, `file:`, a workspace member) put the package at a real
// path outside node_modules, where Playwright compiles it as the project's own code (to CommonJS in a
// CommonJS project) and where Node does not find the project's @playwright/test; they alternate
// between ES module and CommonJS projects, so each way of loading is proven. One child run a shape.
test.describe.configure({ mode: 'parallel', timeout: 300_000 });

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

type ModuleType = 'module' | 'commonjs';

/** A project's package.json: a module type and dependencies. */
function manifest(name: string, type: ModuleType, dependencies: Record<string, string> = {}): string {
  return JSON.stringify({ name, version: '1.0.0', private: true, type, dependencies }, null, 2);
}

/** Writes the signed-in suite into `project` (beside its package.json). */
function writeSuite(project: string): void {
  for (const [name, text] of Object.entries(SUITE)) {
    mkdirSync(join(project, name, '..'), { recursive: true });
    writeFileSync(join(project, name), text);
  }
}

/** Runs the suite of `project` with the Playwright Test installed at `playwrightTest`, and checks both tests passed. */
async function runSuite(project: string, playwrightTest: string, demoUrl: string): Promise<void> {
  const suite = await run(process.execPath, [join(playwrightTest, 'cli.js'), 'test', '--workers=1'], project, { ...installEnv(), DEMO_URL: demoUrl, CHROMIUM });
  expect(suite.output).not.toContain('No tests found');
  expect(suite.output).toContain('2 passed');
  expect(suite.code, suite.output).toBe(0);
}

/** Checks a successful install, with its log as the message. */
function expectInstalled(step: { code: number | null; output: string }): void {
  expect(step.code, step.output).toBe(0);
}

/** `node_modules/playwright-multiauth` of `project` is a link to `target` (a real path outside node_modules). */
function expectLinkedTo(project: string, target: string): void {
  expect(realpathSync(join(project, 'node_modules', 'playwright-multiauth'))).toBe(realpathSync(target));
  expect(realpathSync(target)).not.toContain('/node_modules/');
}

let packed: Packed;
test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(300_000);
  packed = await packOnce();
});

test('the tarball, npm install in an ES module project', async ({ demo }) => {
  const { dir, remove } = tempFiles();
  try {
    const project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), manifest('project', 'module'));
    expectInstalled(await run('npm', ['install', packed.tarball, `@playwright/test@${PINNED['@playwright/test']}`], project, installEnv()));
    expect(realpathSync(join(project, 'node_modules', 'playwright-multiauth'))).toContain('/node_modules/');
    writeSuite(project);
    await runSuite(project, join(project, 'node_modules', '@playwright', 'test'), demo.url);
  } finally {
    remove();
  }
});

test('a directory dependency (npm i ../dir: a link), in a CommonJS project', async ({ demo }) => {
  const { dir, remove } = tempFiles();
  try {
    const pkg = copyPackage(packed, join(dir, 'playwright-multiauth'));
    const project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), manifest('project', 'commonjs'));
    expectInstalled(await run('npm', ['install', '../playwright-multiauth', `@playwright/test@${PINNED['@playwright/test']}`], project, installEnv()));
    expectLinkedTo(project, pkg);
    writeSuite(project);
    await runSuite(project, join(project, 'node_modules', '@playwright', 'test'), demo.url);
  } finally {
    remove();
  }
});

test('npm link, in an ES module project', async ({ demo }) => {
  const { dir, remove } = tempFiles();
  try {
    const pkg = copyPackage(packed, join(dir, 'playwright-multiauth'));
    // npm link goes through the global folder: a temporary one, not this machine's.
    const env = { ...installEnv(), npm_config_prefix: join(dir, 'global') };
    expectInstalled(await run('npm', ['link'], pkg, env));
    const project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), manifest('project', 'module'));
    expectInstalled(await run('npm', ['install', `@playwright/test@${PINNED['@playwright/test']}`], project, env));
    expectInstalled(await run('npm', ['link', 'playwright-multiauth'], project, env));
    expectLinkedTo(project, pkg);
    writeSuite(project);
    await runSuite(project, join(project, 'node_modules', '@playwright', 'test'), demo.url);
  } finally {
    remove();
  }
});

test('a file: dependency, in an ES module project', async ({ demo }) => {
  const { dir, remove } = tempFiles();
  try {
    const pkg = copyPackage(packed, join(dir, 'vendor', 'playwright-multiauth'));
    const project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), manifest('project', 'module', {
      'playwright-multiauth': 'file:../vendor/playwright-multiauth',
      '@playwright/test': PINNED['@playwright/test'] as string,
    }));
    expectInstalled(await run('npm', ['install'], project, installEnv()));
    expectLinkedTo(project, pkg);
    writeSuite(project);
    await runSuite(project, join(project, 'node_modules', '@playwright', 'test'), demo.url);
  } finally {
    remove();
  }
});

test('an npm workspaces member, used by a CommonJS test workspace', async ({ demo }) => {
  const { dir, remove } = tempFiles();
  try {
    const pkg = copyPackage(packed, join(dir, 'packages', 'playwright-multiauth'), { withDependencies: false });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'monorepo', private: true, workspaces: ['packages/*'] }));
    const e2e = join(dir, 'packages', 'e2e');
    mkdirSync(e2e);
    writeFileSync(join(e2e, 'package.json'), manifest('e2e', 'commonjs', {
      'playwright-multiauth': JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).version as string,
      '@playwright/test': PINNED['@playwright/test'] as string,
    }));
    expectInstalled(await run('npm', ['install'], dir, installEnv()));
    expect(realpathSync(join(dir, 'node_modules', 'playwright-multiauth'))).toBe(realpathSync(pkg));
    writeSuite(e2e);
    await runSuite(e2e, join(dir, 'node_modules', '@playwright', 'test'), demo.url);
  } finally {
    remove();
  }
});

test('pnpm (strict: only declared dependencies reachable), in an ES module project', async ({ demo }) => {
  const { dir, remove } = tempFiles();
  try {
    const project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), manifest('project', 'module', {
      'playwright-multiauth': `file:${packed.tarball}`,
      '@playwright/test': PINNED['@playwright/test'] as string,
    }));
    // pnpm's store outlives the test (a later run installs from it, offline); its other folders do not.
    const env = { ...installEnv(), XDG_CACHE_HOME: join(dir, 'cache'), XDG_STATE_HOME: join(dir, 'state'), XDG_CONFIG_HOME: join(dir, 'config') };
    const store = join(tmpdir(), 'multiauth-pnpm-store');
    expectInstalled(await run(join(ROOT, 'node_modules', '.bin', 'pnpm'), ['install', '--prefer-offline', '--store-dir', store, '--config.node-linker=isolated', '--config.hoist=false'], project, env));
    // Strict: what the package does not declare (playwright-core, its dev tools) is out of its reach.
    const installed = realpathSync(join(project, 'node_modules', 'playwright-multiauth'));
    expect(installed).toContain('/node_modules/.pnpm/');
    expect(() => readFileSync(join(installed, '..', 'playwright-core', 'package.json'))).toThrow();
    expect(() => readFileSync(join(project, 'node_modules', '.pnpm', 'node_modules', 'playwright-core', 'package.json'))).toThrow();
    // The CLI's browser launcher reaches playwright-core through @playwright/test all the same.
    const browserDir = join(installed, 'dist', 'runtime', 'protocols', 'browser');
    const launcher = await run(process.execPath, ['--input-type=module', '-e', [
      `await import(${JSON.stringify(pathToFileURL(join(browserDir, 'launch.js')).href)});`,
      `const { loadPlaywrightCore } = await import(${JSON.stringify(pathToFileURL(join(browserDir, 'playwright-core.js')).href)});`,
      'console.log(typeof loadPlaywrightCore().chromium.launch);',
    ].join('\n')], project, env);
    expect(launcher.output.trim(), launcher.output).toBe('function');
    writeSuite(project);
    await runSuite(project, join(project, 'node_modules', '@playwright', 'test'), demo.url);
  } finally {
    remove();
  }
});
