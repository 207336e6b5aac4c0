import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../../support/demo.js';
import { tempFiles } from '../../support/temp-files.js';
import { copyPackage, installEnv, packOnce, PINNED, run, seedToolchain, type Packed } from '../../support/packed-package.js';
import { expectInstalled, expectLinkedTo, manifest, runSuite, writeSuite } from './suite.js';

// One install shape of the packed package (./suite.ts says why each shape is tried).
test.describe.configure({ timeout: 300_000 });

let packed: Packed;
test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(300_000);
  packed = await packOnce();
});

test('a directory dependency (npm i ../dir: a link), in a CommonJS project', async ({ demo }) => {
  const { dir, remove } = tempFiles();
  try {
    const pkg = copyPackage(packed, join(dir, 'playwright-multiauth'));
    const project = join(dir, 'project');
    mkdirSync(project);
    // Playwright Test installed already (the run's toolchain copied in), its range in the manifest.
    writeFileSync(join(project, 'package.json'), manifest('project', 'commonjs', { '@playwright/test': PINNED['@playwright/test'] as string }));
    await seedToolchain(project, ['@playwright/test']);
    expectInstalled(await run('npm', ['install', '../playwright-multiauth'], project, installEnv()));
    expectLinkedTo(project, pkg);
    writeSuite(project);
    await runSuite(project, join(project, 'node_modules', '@playwright', 'test'), demo.url);
  } finally {
    remove();
  }
});
