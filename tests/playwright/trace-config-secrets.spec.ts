import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { startHttpServer, readBody, type RunningServer } from '../support/servers/node-http.js';
import { inlineConfig, runInlineProject } from '../support/inline-project.js';

// Issue 23, item 16: in a cached run against Jupyter (whose pages carry the server token in an
// HTML attribute), one trace held the token in clear while every other trace masked it. The path:
// a worker that starts from the run's digest with a cached session never opens the config, so its
// redactor knows the session's values only, not the config's secrets (the token signed in with).
// Playwright starts such a worker after a failing test (and for every retry). Here the first test
// fails in the first worker, which signs in and opens the config; the second runs in a new worker.

const TOKEN = 'jupyter-server-token-5c1e0a77d2';
const SESSION = 'lab-session-9e8d7c6b5a4f';

let lab: RunningServer;
let signIns = 0;
test.beforeAll(async () => {
  lab = await startHttpServer(async (req, res) => {
    if (req.url === '/login' && req.method === 'POST') {
      signIns++;
      const ok = new URLSearchParams(await readBody(req)).get('password') === TOKEN;
      res.writeHead(ok ? 200 : 403, { 'content-type': 'application/json', ...(ok ? { 'set-cookie': `lab-session=${SESSION}; Path=/` } : {}) });
      return res.end('{}');
    }
    // As Jupyter's pages do: the server token in an attribute of the page.
    const signedIn = req.headers.cookie?.includes(SESSION) === true;
    res.writeHead(signedIn ? 200 : 403, { 'content-type': 'text/html' });
    res.end(signedIn ? `<!doctype html><title>Lab</title><body data-jupyter-token="${TOKEN}"><p id="app">Lab</p>` : '<p>Forbidden</p>');
  });
});
test.afterAll(async () => {
  await lab?.close();
});

const CONFIG = `
procedures:
  - name: token-login
    operations:
      - tech: http
        parameters:
          url: "\${LAB_URL}/login"
          method: POST
          headers: [{ name: Content-Type, values: [application/x-www-form-urlencoded] }]
          body: "password={{password}}"
        extractions: [{ name: session, location: cookie, key: lab-session }]
    injections: [{ location: cookie, key: lab-session, variable: session }]
users:
  - name: alice
    procedure: token-login
    credentials: { username: alice, password: "\${LAB_TOKEN}" }
`;

const SPEC = `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'alice' });
test('first, failing', async ({ page }) => {
  await page.goto(process.env.LAB_URL + '/lab');
  await expect(page.locator('#app')).toHaveText('Lab');
  expect('a failure that starts a new worker').toBe('');
});
test('second, in a new worker', async ({ page }) => {
  await page.goto(process.env.LAB_URL + '/lab');
  await expect(page.locator('#app')).toHaveText('Lab');
});
`;

test('a worker that never opened the config masks the config secret a page shows in its trace', async () => {
  test.setTimeout(180_000);
  const result = await runInlineProject(
    {
      'playwright.config.ts': inlineConfig().replace('use: {', "use: { trace: 'on',"),
      'multiauth.yaml': CONFIG,
      'tests/lab.spec.ts': SPEC,
    },
    { env: { LAB_URL: lab.url, LAB_TOKEN: TOKEN }, args: ['--workers=1'] },
  );
  try {
    expect(result.passed, result.output).toBe(1);
    expect(result.failed, result.output).toBe(1);
    // One sign-in: the second worker took the cached session.
    expect(signIns).toBe(1);
    const traces = readdirSync(join(result.dir, 'test-results'), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('trace.zip'));
    expect(traces).toHaveLength(2);
    for (const trace of traces) {
      const entries = unzipSync(readFileSync(join(result.dir, 'test-results', trace)));
      const text = Object.values(entries).map((data) => Buffer.from(data).toString('latin1')).join('\n');
      // The search finds what is there: the page, its attribute masked.
      expect(text, trace).toContain('data-jupyter-token=');
      expect(text, trace).not.toContain(TOKEN);
      expect(text, trace).not.toContain(SESSION);
    }
  } finally {
    rmSync(result.dir, { recursive: true, force: true });
  }
});
