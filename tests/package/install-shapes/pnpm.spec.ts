import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test, expect } from '../../support/demo.js';
import { ROOT } from '../../support/root.js';
import { tempFiles } from '../../support/temp-files.js';
import { installEnv, packOnce, PINNED, run, type Packed } from '../../support/packed-package.js';
import { expectInstalled, manifest, runSuite, writeSuite } from './suite.js';

// One install shape of the packed package (./suite.ts says why each shape is tried).
test.describe.configure({ timeout: 300_000 });

let packed: Packed;
test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(300_000);
  packed = await packOnce();
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
      `await import(${JSON.stringify(pathToFileURL(join(browserDir, 'launch.cjs')).href)});`,
      `const { loadPlaywrightCore } = await import(${JSON.stringify(pathToFileURL(join(browserDir, 'playwright-core.cjs')).href)});`,
      'console.log(typeof loadPlaywrightCore().chromium.launch);',
    ].join('\n')], project, env);
    expect(launcher.output.trim(), launcher.output).toBe('function');
    writeSuite(project);
    await runSuite(project, join(project, 'node_modules', '@playwright', 'test'), demo.url);
  } finally {
    remove();
  }
});
