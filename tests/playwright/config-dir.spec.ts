import { test, expect } from '@playwright/test';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { playwrightConfigFile } from '../../src/playwright/config-dir.js';

const run = (...args: string[]) => ['node', '/x/node_modules/@playwright/test/cli.js', 'test', ...args];

test('the config Playwright runs is found as Playwright finds it: -c/--config, a folder, else the current folder', () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'multiauth-config-file-')));
  try {
    mkdirSync(join(dir, 'e2e'));
    writeFileSync(join(dir, 'playwright.config.js'), '');
    writeFileSync(join(dir, 'playwright.config.ts'), '');
    writeFileSync(join(dir, 'e2e', 'playwright.config.mjs'), '');
    writeFileSync(join(dir, 'e2e', 'other.config.ts'), '');
    // In a folder, .ts before .js, as Playwright looks.
    expect(playwrightConfigFile(run(), dir)).toBe(join(dir, 'playwright.config.ts'));
    expect(playwrightConfigFile(run('-c', 'e2e'), dir)).toBe(join(dir, 'e2e', 'playwright.config.mjs'));
    expect(playwrightConfigFile(run('--config=e2e/other.config.ts', '--workers=2'), dir)).toBe(join(dir, 'e2e', 'other.config.ts'));
    expect(playwrightConfigFile(run('--config', join(dir, 'e2e', 'other.config.ts')), '/')).toBe(join(dir, 'e2e', 'other.config.ts'));
    expect(playwrightConfigFile(run('-c', 'missing.config.ts'), dir)).toBeUndefined();
    expect(playwrightConfigFile(run(), join(dir, 'e2e', 'other.config.ts', '..', '..', 'e2e'))).toBe(join(dir, 'e2e', 'playwright.config.mjs'));
    rmSync(join(dir, 'e2e', 'playwright.config.mjs'));
    expect(playwrightConfigFile(run(), join(dir, 'e2e'))).toBeUndefined();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
