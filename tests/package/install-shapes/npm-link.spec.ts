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

test('npm link, in an ES module project', async ({ demo }) => {
  const { dir, remove } = tempFiles();
  try {
    const pkg = copyPackage(packed, join(dir, 'playwright-multiauth'));
    // npm link goes through the global folder: a temporary one, not this machine's.
    const env = { ...installEnv(), npm_config_prefix: join(dir, 'global') };
    expectInstalled(await run('npm', ['link'], pkg, env));
    const project = join(dir, 'project');
    mkdirSync(project);
    // A project that has Playwright Test installed (the run's toolchain copied in) links the package.
    writeFileSync(join(project, 'package.json'), manifest('project', 'module', { '@playwright/test': PINNED['@playwright/test'] as string }));
    await seedToolchain(project, ['@playwright/test']);
    expectInstalled(await run('npm', ['link', 'playwright-multiauth'], project, env));
    expectLinkedTo(project, pkg);
    writeSuite(project);
    await runSuite(project, join(project, 'node_modules', '@playwright', 'test'), demo.url);
  } finally {
    remove();
  }
});
