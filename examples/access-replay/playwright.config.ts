import { defineConfig } from '@playwright/test';
import { existsSync } from 'node:fs';
import { authProjects, type AuthOptions } from 'playwright-multiauth';

// The demo server (fixtures/demo-server) is started by webServer; multiauth.yaml reads DEMO_URL.
const port = Number(process.env.DEMO_PORT ?? 4012);
process.env.DEMO_URL ??= `http://127.0.0.1:${port}`;
const browser = [process.env.MULTIAUTH_BROWSER_PATH, '/usr/lib/chromium/chromium-headless-shell', '/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((p) => p && existsSync(p));

// AuthOptions types `accessReplay` in `use` (Playwright's way of typing a plugin's options).
export default defineConfig<AuthOptions>({
  testDir: 'tests',
  outputDir: 'test-results',
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
  // The role suite runs as alice and as bob; after each test, what it sent as its user is sent
  // again as bob (not as bob himself) and as anonymous. The run ends with the line
  // `multiauth: access replay: ...` and writes test-results/multiauth-access-replay.{json,md}.
  projects: authProjects({ name: 'roles', use: { accessReplay: { as: ['bob'] } } }),
});
