import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from '../../support/demo.js';
import { tempFiles } from '../../support/temp-files.js';
import { installEnv, packOnce, PINNED, run, seedToolchain, type Packed } from '../../support/packed-package.js';
import { expectInstalled, manifest, runSuite, writeSuite } from './suite.js';

// One install shape of the packed package (./suite.ts says why each shape is tried).
test.describe.configure({ timeout: 300_000 });

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
    // Playwright Test installed already (the run's toolchain copied in), its range in the manifest.
    writeFileSync(join(project, 'package.json'), manifest('project', 'module', { '@playwright/test': PINNED['@playwright/test'] as string }));
    await seedToolchain(project, ['@playwright/test']);
    expectInstalled(await run('npm', ['install', packed.tarball], project, installEnv()));
    expect(realpathSync(join(project, 'node_modules', 'playwright-multiauth'))).toContain('/node_modules/');
    writeSuite(project);
    // Two workers, one sign-in: the run's session is shared (the check cjs-tarball.spec.ts made in a
    // child run of its own before issue 36; its CommonJS project runs the README's spec instead).
    demo.clear();
    await runSuite(project, join(project, 'node_modules', '@playwright', 'test'), demo.url, { workers: 2 });
    expect(demo.counters.signIns).toEqual({ alice: 1 });
  } finally {
    remove();
  }
});
