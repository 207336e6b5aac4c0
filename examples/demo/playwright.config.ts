import { defineConfig } from '@playwright/test';
import { existsSync } from 'node:fs';
import { authProjects, authTimeline } from 'playwright-multiauth';

// The demo server (fixtures/demo-server) is started by webServer; multiauth.yaml reads DEMO_URL.
const port = Number(process.env.DEMO_PORT ?? 4010);
process.env.DEMO_URL ??= `http://127.0.0.1:${port}`;
// webServer starts a fresh demo server every run, which knows none of the sessions it issued
// before: multiauth.yaml's `validation` finds that out once per run and signs each user in again.

// Told to authProjects too: it shares the workers among the users (Playwright does not show them while this file loads).
const workers = 2;
const browser = [process.env.MULTIAUTH_BROWSER_PATH, '/usr/lib/chromium/chromium-headless-shell', '/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((p) => p && existsSync(p));

export default defineConfig({
  testDir: 'tests',
  outputDir: 'test-results',
  workers,
  reporter: process.env.DEMO_REPORTER ?? 'list',
  use: {
    baseURL: process.env.DEMO_URL,
    launchOptions: browser ? { executablePath: browser } : {},
  },
  webServer: {
    command: `node --import tsx ../../fixtures/demo-server/main.ts --port ${port}`,
    url: `${process.env.DEMO_URL}/__counters`,
    reuseExistingServer: false,
  },
  // authTimeline: after the others, a test attaches the run's sign-in timeline to the report.
  projects: authTimeline([
    // The role matrix: roles.spec.ts runs once as every configured user of the multiauth.yaml
    // beside this file (wherever playwright is run from).
    ...authProjects({ name: 'roles', testMatch: /roles\.spec\.ts/ }, { workers }),
    { name: 'scenarios', testIgnore: /roles\.spec\.ts/ },
  ]),
});
