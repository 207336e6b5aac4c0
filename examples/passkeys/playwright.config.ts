import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

// The demo server (fixtures/demo-server) is started by webServer; multiauth.yaml reads DEMO_URL.
const port = Number(process.env.DEMO_PORT ?? 4012);
process.env.DEMO_URL ??= `http://127.0.0.1:${port}`;
// The demo server forgets every session and passkey when it stops, so nothing is kept across runs.
// It also spares a MULTIAUTH_CACHE_KEY: a passkey the app registers (dave's) is never cached
// unsealed, so without a key it stays in the worker that registered it.
process.env.MULTIAUTH_CACHE ??= 'off';
const browser = [process.env.MULTIAUTH_BROWSER_PATH, '/usr/lib/chromium/chromium-headless-shell', '/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((p) => p && existsSync(p));

export default defineConfig({
  testDir: 'tests',
  outputDir: 'test-results',
  reporter: process.env.DEMO_REPORTER ?? 'list',
  globalSetup: './global-setup.ts',
  use: { baseURL: process.env.DEMO_URL, launchOptions: browser ? { executablePath: browser } : {} },
  webServer: {
    command: `node --import tsx ../../fixtures/demo-server/main.ts --port ${port}`,
    url: `${process.env.DEMO_URL}/__counters`,
    reuseExistingServer: false,
  },
});
