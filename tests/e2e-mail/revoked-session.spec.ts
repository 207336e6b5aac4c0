import { inlineConfig, runInlineProject } from '../support/inline-project.js';
import { codeConfig, expect, test } from './support.js';

// Issue 37, "Done when": a session the server revoked signs in again, by a new mail and its new code
// (never the code of the mail before), in a child Playwright run whose webServer is mailSink().

test.describe.configure({ timeout: 300_000 });

const REVOKED_SPEC = `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'carol' });
test('a revoked session signs in again with a new mail', async ({ authedRequest }) => {
  expect(await (await authedRequest.get('/whoami')).json()).toMatchObject({ user: 'carol' });
  expect((await fetch(process.env.DEMO_URL + '/__end-sessions', { method: 'POST' })).status).toBe(200);
  expect(await (await authedRequest.get('/whoami')).json()).toMatchObject({ user: 'carol', via: 'cookie' });
});
`;

test('a revoked session signs in again, by a new mail and its new code', async ({ demo, ports }) => {
  const result = await runInlineProject(
    {
      'playwright.config.ts': `import { mailSink } from 'playwright-multiauth';\n${inlineConfig('webServer: mailSink(),\n  timeout: 120_000,')}`,
      'multiauth.yaml': codeConfig(demo.url, ports),
      'revoked.spec.ts': REVOKED_SPEC,
    },
    { env: { DEMO_URL: demo.url, MULTIAUTH_CACHE: 'off' } },
  );
  expect(result.exitCode, result.output).toBe(0);
  expect(demo.counters.signIns).toEqual({ carol: 2 });
  expect(demo.counters.endpoints['POST /email-code/start']).toBe(2);
  expect(demo.counters.endpoints['POST /email-code/verify']).toBe(2);
});
