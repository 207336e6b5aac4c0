import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import type * as PlaywrightTestModule from '@playwright/test';
import { ownFile } from '../core/call-site.js';

/** What `@playwright/test` exports at runtime (its `test` and `expect`, among the rest). */
export type PlaywrightTest = typeof PlaywrightTestModule;

/** Where a loaded module of Playwright Test's runner lives: `<root>/lib/...` of the `playwright` package. */
const RUNNER_FILE = `${sep}playwright${sep}lib${sep}`;

/**
 * The Playwright Test that runs this process, found among the modules it has loaded: the
 * `playwright` package whose `lib/` is in the CommonJS module cache (its runner and workers are
 * CommonJS), when its `package.json` says so. `@playwright/test` is `playwright/test` re-exported,
 * so its `test.js` is the very module a spec's `import '@playwright/test'` loads.
 */
function runningPlaywright(require: NodeJS.Require): string | undefined {
  const tried = new Set<string>();
  for (const file of Object.keys(require.cache)) {
    const at = file.lastIndexOf(RUNNER_FILE);
    if (at === -1) continue;
    const root = file.slice(0, at + `${sep}playwright`.length);
    if (tried.has(root)) continue;
    tried.add(root);
    try {
      const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name?: unknown };
      if (manifest.name === 'playwright' && existsSync(join(root, 'test.js'))) return join(root, 'test.js');
    } catch {
      // A folder named playwright/lib of someone else's: not the runner.
    }
  }
  return undefined;
}

/**
 * Playwright Test, the one running the specs. `@playwright/test` is a peer dependency, and Node
 * resolves it from the real path of the file that imports it: installed as a link (`npm link`,
 * `npm i ../dir`, `file:`), this package's real path is outside the project, where
 * `@playwright/test` is missing (the project's is not found) or is a second copy (which refuses to
 * load: "Requiring @playwright/test second time"). So the copy already loaded by the runner is used;
 * outside a Playwright run, the one this package's folder resolves, else the current folder's.
 *
 * @example
 * const { test: base, expect } = loadPlaywrightTest();
 */
export function loadPlaywrightTest(): PlaywrightTest {
  const here = createRequire(ownFile());
  const running = runningPlaywright(here);
  if (running !== undefined) return here(running) as PlaywrightTest;
  for (const from of [ownFile(), join(process.cwd(), 'package.json')]) {
    try {
      return createRequire(from)('@playwright/test') as PlaywrightTest;
    } catch {
      // Not reachable from there; the next place may have it.
    }
  }
  throw new Error(`playwright-multiauth needs @playwright/test, found neither from ${dirname(ownFile())} nor from ${process.cwd()}.\nRecommended fix: install it in your project (npm i -D @playwright/test) and run the tests with its \`playwright test\`.`);
}
