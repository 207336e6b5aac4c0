import { inlineConfig, runInlineProject } from '../support/inline-project.js';
import { FIVE, codeConfig, expect, test } from './support.js';

// Issue 37, "Done when": the demo server's three mail sign-ins, run by the package in a child
// Playwright run whose webServer is mailSink(): the demo server (this worker's) sends real SMTP to
// that sink, the workers read it through the package's reader.

test.describe.configure({ timeout: 300_000 });

const SPEC = `
import { test, expect } from 'playwright-multiauth';
for (const user of ${JSON.stringify(FIVE)}) {
  test.describe(user, () => {
    test.use({ authUser: user });
    test('signed in by a mailed code: ' + user, async ({ authedRequest }) => {
      expect(await (await authedRequest.get('/whoami')).json()).toMatchObject({ user, via: 'cookie' });
    });
  });
}
test.describe('tina by a magic link', () => {
  test.use({ authUser: 'tina' });
  test('tina by a magic link', async ({ authedRequest }) => {
    expect(await (await authedRequest.get('/whoami')).json()).toMatchObject({ user: 'tina', via: 'cookie' });
  });
});
test.describe('tina by a password and a mailed code', () => {
  test.use({ authUser: 'tina2fa' });
  test('tina by a password and a mailed code', async ({ authedRequest }) => {
    expect(await (await authedRequest.get('/whoami')).json()).toMatchObject({ user: 'tina', via: 'cookie' });
  });
});
`;

// Before the tests: a code for alice and bob already in the sink's inbox, from an earlier start.
const GLOBAL_SETUP = `
export default async function globalSetup() {
  for (const email of ['alice+run@demo.test', 'bob+run@demo.test']) {
    const answer = await fetch(process.env.DEMO_URL + '/email-code/start', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
    if (!answer.ok) throw new Error('older code: HTTP ' + answer.status);
  }
}
`;

test('five users at once each get their own code, an older code in the inbox is never used, QP HTML-only and base64 mails, a tracker; a second run signs nobody in', async ({ demo, ports }) => {
  const files = {
    'playwright.config.ts': `import { mailSink } from 'playwright-multiauth';\n${inlineConfig("webServer: mailSink(),\n  timeout: 120_000,\n  fullyParallel: true,\n  globalSetup: './global-setup.ts',")}`,
    'global-setup.ts': GLOBAL_SETUP,
    'multiauth.yaml': codeConfig(demo.url, ports),
    'mail.spec.ts': SPEC,
  };
  const first = await runInlineProject(files, { env: { DEMO_URL: demo.url }, args: ['--workers=5'] });
  expect(first.exitCode, first.output).toBe(0);
  expect(first.passed).toBe(7);
  // Seven sign-ins, each once; alice and bob's starts twice (the older code, then theirs).
  expect(demo.counters.signIns).toEqual({ alice: 1, bob: 1, carol: 1, dave: 1, erin: 1, tina: 2 });
  expect(demo.counters.endpoints['POST /email-code/start']).toBe(7);
  expect(demo.counters.endpoints['POST /email-code/verify']).toBe(5);
  expect(demo.counters.endpoints['GET /t/click']).toBe(1);
  expect(demo.counters.endpoints['GET /magic-link/verify']).toBe(1);

  // Nothing signs in any more, so nothing happens at once: one worker reads the seven sessions (four worker starts fewer, issue 36).
  const second = await runInlineProject(files, { env: { DEMO_URL: demo.url }, args: ['--workers=1'], dir: first.dir });
  expect(second.exitCode, second.output).toBe(0);
  expect(second.passed).toBe(7);
  expect(demo.counters.signIns).toEqual({ alice: 1, bob: 1, carol: 1, dave: 1, erin: 1, tina: 2 });
  // Only the global setup's two starts: no sign-in mailed anything.
  expect(demo.counters.endpoints['POST /email-code/start']).toBe(9);
  expect(demo.counters.endpoints['POST /magic-link/start']).toBe(1);
  expect(demo.counters.endpoints['POST /mail-2fa/session']).toBe(1);
});

