import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from '../../support/demo.js';
import { tempFiles } from '../../support/temp-files.js';
import { copyPackage, installEnv, packOnce, PINNED, run, seedToolchain, type Packed } from '../../support/packed-package.js';
import { expectInstalled, manifest, runSuite, writeSuite } from './suite.js';

// One install shape of the packed package (./suite.ts says why each shape is tried).
test.describe.configure({ timeout: 300_000 });

let packed: Packed;
test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(300_000);
  packed = await packOnce();
});

test('an npm workspaces member, used by a CommonJS test workspace', async ({ demo }) => {
  const { dir, remove } = tempFiles();
  try {
    const pkg = copyPackage(packed, join(dir, 'packages', 'playwright-multiauth'), { withDependencies: false });
    // npm installs a member's devDependencies too: this repository's 24 dev tools and their hundreds
    // of packages (three minutes on a loaded machine), which could also hide a missing runtime
    // dependency of the member. Without them, what the package declares for runtime is all it gets.
    const member = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { devDependencies?: unknown };
    expect(member.devDependencies).toBeDefined();
    delete member.devDependencies;
    writeFileSync(join(pkg, 'package.json'), JSON.stringify(member, null, 2));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'monorepo', private: true, workspaces: ['packages/*'] }));
    const e2e = join(dir, 'packages', 'e2e');
    mkdirSync(e2e);
    writeFileSync(join(e2e, 'package.json'), manifest('e2e', 'commonjs', {
      'playwright-multiauth': JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).version as string,
      '@playwright/test': PINNED['@playwright/test'] as string,
    }));
    await seedToolchain(dir, ['@playwright/test']);
    expectInstalled(await run('npm', ['install'], dir, installEnv()));
    expect(realpathSync(join(dir, 'node_modules', 'playwright-multiauth'))).toBe(realpathSync(pkg));
    writeSuite(e2e);
    await runSuite(e2e, join(dir, 'node_modules', '@playwright', 'test'), demo.url);
  } finally {
    remove();
  }
});
