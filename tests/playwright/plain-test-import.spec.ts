import { expect, test } from '@playwright/test';
import { takesPlainTest, warnPlainTestImports } from '../../src/playwright/plain-test-import.js';
import { removeTempDirs, writeFiles } from '../support/temp-files.js';

test.afterAll(removeTempDirs);

test('a file that takes test from @playwright/test is found, however it imports it', () => {
  for (const text of [
    "import { test, expect } from '@playwright/test';",
    'import {\n  expect,\n  test as base,\n} from "@playwright/test";',
    "import test from '@playwright/test';",
    "import test, { expect } from '@playwright/test';",
    "const { test, expect } = require('@playwright/test');",
    "const { test: base } = require(\"@playwright/test\");",
  ]) {
    expect(takesPlainTest(text), text).toBe(true);
  }
  for (const text of [
    "import { test, expect } from 'playwright-multiauth';",
    "import { expect } from '@playwright/test';\nimport { test } from './fixtures';",
    "import type { test } from '@playwright/test';",
    "import { type test, expect } from '@playwright/test';",
    "import { defineConfig, testInfo } from '@playwright/test';",
    "import { test } from '@playwright/test-utils';",
  ]) {
    expect(takesPlainTest(text), text).toBe(false);
  }
});

test('the scan reads only the project files, once per file, and never in a worker', () => {
  const plain = "import { test } from '@playwright/test';\n";
  const dir = writeFiles({
    'tests/a.spec.ts': plain,
    'tests/deep/b.test.mjs': plain,
    'tests/ours.spec.ts': "import { test } from 'playwright-multiauth';\n",
    'tests/helper.ts': plain,
    'tests/node_modules/x/c.spec.ts': plain,
    'tests/.hidden/e.spec.ts': plain,
    'tests/.git/f.spec.ts': plain,
    'tests/ignored.spec.ts': plain,
    'other/d.spec.ts': plain,
  });
  const warnings: string[] = [];
  const warn = (text: string) => warnings.push(text);

  warnPlainTestImports({ testDir: 'tests', testIgnore: /ignored/ }, dir, ['api-alice', 'api-bob'], { TEST_WORKER_INDEX: '0' }, warn);
  expect(warnings).toEqual([]);
  warnPlainTestImports({ testDir: 'tests', testIgnore: /ignored/ }, dir, ['api-alice', 'api-bob'], {}, warn);
  expect(warnings.map((w) => w.split(' takes ')[0]).sort()).toEqual([
    'playwright-multiauth: warning: tests/.hidden/e.spec.ts',
    'playwright-multiauth: warning: tests/a.spec.ts',
    'playwright-multiauth: warning: tests/deep/b.test.mjs',
  ]);
  expect(warnings[0]).toContain('run signed out in "api-alice", "api-bob"');
  // The same files seen by a second authProjects call: no second warning.
  warnPlainTestImports({ testDir: 'tests' }, dir, ['web-bob'], {}, warn);
  expect(warnings.map((w) => w.split(' takes ')[0])).toContain('playwright-multiauth: warning: tests/ignored.spec.ts');
  expect(warnings).toHaveLength(4);
});
