import { defineConfig } from '@playwright/test';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { CHROMIUM } from './tests/support/chromium.js';
import { OVER_BUDGET_FOR_NOW, QUICK_LANE, QUICK_LANE_LEAVES_OUT, REAL_APPS_LANE } from './tests/support/lanes.js';

/**
 * One runner for everything: unit tests of each layer, tests against real servers, and fixture
 * tests that run small Playwright projects in a child process. Browsers are Debian's chromium
 * (Playwright cannot download its own here), its old headless shell when installed (as Playwright
 * runs its own headless: half the CPU); MULTIAUTH_BROWSER_PATH overrides.
 */
function browserPath(): string | undefined {
  return existsSync(CHROMIUM) ? CHROMIUM : undefined;
}

/**
 * The files whose tests take longest (a minute or more each, mostly child runs and installs).
 * Playwright hands out tests in file order, and these sort late: a long test started last keeps
 * one worker busy while the other idles. Run first, they overlap with the many short ones.
 */
const LONG_FIRST = [
  'package/install-shapes/*.spec.ts',
  'package/cjs-tarball.spec.ts',
  'playwright/shard*.spec.ts',
  'playwright/denials.spec.ts',
  'playwright/access-matrix.spec.ts',
  'playwright/passkeys.spec.ts',
  'examples/access-replay-example.spec.ts',
].map((file) => `**/tests/${file}`);

export default defineConfig({
  testDir: 'tests',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  forbidOnly: !!process.env.CI,
  fullyParallel: true,
  // Most tests wait on child processes, servers and browsers: Playwright's default (half the cores)
  // would leave a 2-core machine with one worker and double the run. The quick lane's tests are
  // in-process and short: one worker a core.
  workers: process.env.MULTIAUTH_LANE === 'quick' ? '100%' : process.env.CI ? 2 : Math.max(2, Math.floor(availableParallelism() / 2)),
  // The file-times reporter prints the ten slowest files at the end and fails a run in which one
  // file's tests take more than 90 s together (tests/README.md, "Lanes and time").
  reporter: [process.env.CI ? ['line'] : ['list'], ['./tests/support/file-times-reporter.ts', { allowedOver: OVER_BUDGET_FOR_NOW }]],
  use: {
    launchOptions: { executablePath: browserPath() },
  },
  // Projects run in this order; the split changes no test, only when it starts. MULTIAUTH_LANE=quick
  // (`npm run test:quick`) runs the quick lane instead (tests/support/lanes.ts).
  // MULTIAUTH_LANE=real-apps (`npm run test:real-apps`) runs only the applications installed from
  // npm that take minutes to install (tests/support/lanes.ts, REAL_APPS_LANE); `npm test` leaves them out.
  projects:
    process.env.MULTIAUTH_LANE === 'quick'
      ? [{ name: 'quick', testMatch: QUICK_LANE.map((glob) => `**/tests/${glob}`), testIgnore: Object.keys(QUICK_LANE_LEAVES_OUT).map((glob) => `**/tests/${glob}`) }]
      : process.env.MULTIAUTH_LANE === 'real-apps'
        ? [{ name: 'real-apps', testMatch: REAL_APPS_LANE.map((glob) => `**/tests/${glob}`) }]
        : [
            { name: 'long', testMatch: LONG_FIRST, testIgnore: REAL_APPS_LANE.map((glob) => `**/tests/${glob}`) },
            { name: 'rest', testIgnore: [...LONG_FIRST, ...REAL_APPS_LANE.map((glob) => `**/tests/${glob}`)] },
          ],
});
