import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
import { mailSink } from 'playwright-multiauth';

// The demo server (fixtures/demo-server) sends its mail to the sink of multiauth.yaml (port 2525),
// which mailSink() runs for the whole run; multiauth.yaml reads DEMO_URL.
const port = Number(process.env.DEMO_PORT ?? 4013);
process.env.DEMO_URL ??= `http://127.0.0.1:${port}`;
// The demo server forgets its sessions when it stops: nothing is worth keeping across runs.
process.env.MULTIAUTH_CACHE ??= 'off';
const browser = [process.env.MULTIAUTH_BROWSER_PATH, '/usr/lib/chromium/chromium-headless-shell', '/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((p) => p && existsSync(p));

export default defineConfig({
  testDir: 'tests',
  outputDir: 'test-results',
  reporter: process.env.DEMO_REPORTER ?? 'list',
  use: { baseURL: process.env.DEMO_URL, launchOptions: browser ? { executablePath: browser } : {} },
  webServer: [
    mailSink(),
    {
      command: `node --import tsx ../../fixtures/demo-server/main.ts --port ${port} --smtp-port 2525`,
      url: `${process.env.DEMO_URL}/__counters`,
      reuseExistingServer: false,
    },
  ],
});
