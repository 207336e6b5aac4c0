import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ownFile } from '../../../core/call-site.js';
import { MultiAuthError } from '../../../core/errors.js';

type PlaywrightCore = typeof import('playwright-core');

/**
 * playwright-core, the library that launches browsers for the CLI. It is no dependency of this
 * package but of Playwright's (`@playwright/test` -> `playwright` -> `playwright-core`): where only
 * declared dependencies are reachable (pnpm's strict layout), it is found through that chain, from this
 * package's folder and then from the current folder, so the CLI uses the same copy the tests do.
 *
 * @throws MultiAuthError `BROWSER_STEP_FAILED` when no copy is reachable.
 * @example
 * const { chromium } = loadPlaywrightCore();
 */
export function loadPlaywrightCore(): PlaywrightCore {
  for (const from of [ownFile(), join(process.cwd(), 'package.json')]) {
    const chain = ['@playwright/test/package.json', 'playwright/package.json'];
    for (let depth = 0; depth <= chain.length; depth++) {
      try {
        let require = createRequire(from);
        for (const step of chain.slice(0, depth)) require = createRequire(require.resolve(step));
        return require('playwright-core') as PlaywrightCore;
      } catch {
        // Not reachable this way; the next one may be.
      }
    }
  }
  throw new MultiAuthError('BROWSER_STEP_FAILED', 'playwright-core, which launches the browser, is not installed', {
    hint: 'Install Playwright Test in the project: npm i -D @playwright/test (it brings playwright-core).',
  });
}
