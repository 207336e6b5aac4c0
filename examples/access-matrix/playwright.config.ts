import { defineConfig } from '@playwright/test';

// The demo server (fixtures/demo-server) is started by webServer; multiauth.yaml reads DEMO_URL.
const port = Number(process.env.DEMO_PORT ?? 4011);
process.env.DEMO_URL ??= `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: 'tests',
  outputDir: 'test-results',
  reporter: process.env.DEMO_REPORTER ?? 'list',
  use: { baseURL: process.env.DEMO_URL },
  webServer: {
    command: `node --import tsx ../../fixtures/demo-server/main.ts --port ${port}`,
    url: `${process.env.DEMO_URL}/__counters`,
    reuseExistingServer: false,
  },
});
