import { defineConfig } from '@playwright/test';
import { existsSync } from 'node:fs';

/**
 * One runner for everything: unit tests of each layer, tests against real servers, and fixture
 * tests that run small Playwright projects in a child process. Browsers are Debian's chromium
 * (Playwright cannot download its own here); MULTIAUTH_BROWSER_PATH overrides.
 */
function browserPath(): string | undefined {
  const candidates = [process.env.MULTIAUTH_BROWSER_PATH, '/usr/lib/chromium/chromium', '/usr/bin/chromium'];
  return candidates.find((p): p is string => !!p && existsSync(p));
}

export default defineConfig({
  testDir: 'tests',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  forbidOnly: !!process.env.CI,
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  reporter: process.env.CI ? [['line']] : [['list']],
  use: {
    launchOptions: { executablePath: browserPath() },
  },
});
