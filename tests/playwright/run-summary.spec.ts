import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, MULTI_CONFIG } from './support.js';
import { inlineConfig, runInlineProject, type InlineResult } from '../support/inline-project.js';

test.describe.configure({ timeout: 300_000 });

// Issue 35, item 11: the run says what auth cost: one `multiauth:` line at its end, and a timeline
// of its sign-ins in the output directory and attached to the report (authTimeline).

const CONFIG = inlineConfig(`projects: (await import('playwright-multiauth')).authTimeline([{ name: 'api' }]),`);

const USERS_SPEC = `
import { test, expect } from 'playwright-multiauth';
// carol's token goes into request bodies: a GET carries none.
for (const user of ['alice', 'bob', 'dave']) {
  test.describe(user, () => {
    test.use({ authUser: user });
    test('whoami as ' + user, async ({ authedRequest }) => {
      expect((await (await authedRequest.get('/whoami')).json()).user).toBe(user);
    });
  });
}
`;

// The server forgets every session it issued: dave's next request gets a 401.
const REVOKED_SPEC = `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'dave' });
test('revoked mid-test', async ({ authedRequest, playwright }) => {
  expect((await (await authedRequest.get('/whoami')).json()).user).toBe('dave');
  const admin = await playwright.request.newContext();
  await admin.post(process.env.DEMO_URL + '/__reset');
  await admin.dispose();
  expect((await (await authedRequest.get('/whoami')).json()).user).toBe('dave');
});
`;

// carol's password is wrong: her sign-in fails (she is in none of the users' specs, only in CAROL_SPEC).
const WRONG_CAROL_CONFIG = MULTI_CONFIG.replace('password: carol-password', 'password: carol-WRONG-pw');

const CAROL_SPEC = `
import { test, expect } from 'playwright-multiauth';
test.describe('carol', () => {
  test.use({ authUser: 'carol' });
  for (const n of [1, 2, 3]) test('carol ' + n, async ({ authedRequest }) => { await authedRequest.get('/whoami'); });
});
test('signed out', async ({ request }) => { expect((await request.get('/whoami')).status()).toBe(401); });
`;

/** The run's `multiauth:` lines (there must be one). */
function summaryLines(result: InlineResult): string[] {
  return result.output.split('\n').filter((line) => line.startsWith('multiauth:'));
}

interface JsonAttachment {
  name: string;
  contentType: string;
  body?: string;
}

/** The attachments of the test the timeline project runs, decoded. */
function timelineAttachments(result: InlineResult): Record<string, string> {
  const found: Record<string, string> = {};
  const visit = (suite: { specs?: Array<{ title: string; tests: Array<{ results: Array<{ attachments?: JsonAttachment[] }> }> }>; suites?: unknown[] }): void => {
    for (const spec of suite.specs ?? []) {
      if (spec.title !== 'multiauth sign-in timeline') continue;
      for (const attachment of spec.tests[0]?.results[0]?.attachments ?? []) found[attachment.name] = Buffer.from(attachment.body ?? '', 'base64').toString('utf8');
    }
    (suite.suites as (typeof suite)[] | undefined)?.forEach(visit);
  };
  (result.report.suites as Parameters<typeof visit>[0][]).forEach(visit);
  return found;
}

/** The rows of a timeline's text table, as `worker N | user | what`. */
function rowsOf(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => /^\d+\.\d\d s /.test(line))
    .map((line) => line.split(/ {2,}/).slice(1, 4).join(' | ').replace(/^worker \d+/, 'worker N'))
    .sort();
}

test('the line counts sign-ins, the cache, a re-sign-in with its reason and a failed sign-in once; the timeline is in the output directory and the report', async ({ demoEnv }) => {
  expect(WRONG_CAROL_CONFIG).toContain('carol-WRONG-pw');
  // carol's spec is written now and run only by the third run (a failed sign-in and its count).
  const first = await runInlineProject({ 'multiauth.yaml': WRONG_CAROL_CONFIG, 'carol.spec.ts': CAROL_SPEC, 'playwright.config.ts': CONFIG, 'users.spec.ts': USERS_SPEC }, { env: demoEnv, args: ['users.spec.ts', 'timeline-teardown'] });
  expect(first.passed, first.output).toBe(4);
  expect(summaryLines(first)).toEqual([
    expect.stringMatching(/^multiauth: 3 users signed in \(\d+\.\d\d s\), 0 from the cache, 0 refreshed, 0 signed in again, 0 denials kept, 0 failed; timeline: test-results\/multiauth-timeline\.html$/),
  ]);
  // The line comes last, after the reporter's own summary.
  expect(first.output.trimEnd().split('\n').at(-1)).toMatch(/^multiauth: /);

  const html = readFileSync(join(first.dir, 'test-results', 'multiauth-timeline.html'), 'utf8');
  const text = readFileSync(join(first.dir, 'test-results', 'multiauth-timeline.txt'), 'utf8');
  expect(rowsOf(text)).toEqual(['worker N | alice | signed in', 'worker N | bob | signed in', 'worker N | dave | signed in']);
  // A picture with a bar per sign-in, and the table; nothing fetched from elsewhere.
  expect(html).toContain('<svg xmlns="http://www.w3.org/2000/svg"');
  expect(html.match(/<rect /g)).toHaveLength(3);
  expect(html.match(/<tr><td>/g)).toHaveLength(3);
  expect(html).not.toMatch(/<script|<link|src=|href=|url\(/i);
  // The report's copy, attached by the timeline project's test (which ran after the others).
  const attached = timelineAttachments(first);
  expect(Object.keys(attached).sort()).toEqual(['multiauth-timeline.html', 'multiauth-timeline.txt']);
  expect(rowsOf(attached['multiauth-timeline.txt'] ?? '')).toEqual(rowsOf(text));
  expect(attached['multiauth-timeline.html']).toContain('<svg');

  // The same folder again: every session from the cache, nobody signed in.
  const second = await runInlineProject({ 'playwright.config.ts': CONFIG, 'users.spec.ts': USERS_SPEC }, { env: demoEnv, dir: first.dir, args: ['users.spec.ts', 'timeline-teardown'] });
  expect(second.passed, second.output).toBe(4);
  expect(summaryLines(second)).toEqual([expect.stringMatching(/^multiauth: 0 users signed in \(0\.00 s\), 3 from the cache, 0 refreshed, 0 signed in again, 0 denials kept, 0 failed; /)]);
  expect(rowsOf(readFileSync(join(first.dir, 'test-results', 'multiauth-timeline.txt'), 'utf8'))).toEqual(
    ['alice', 'bob', 'dave'].map((user) => `worker N | ${user} | from the cache`),
  );

  // A session the server revoked: one re-sign-in, and why. Beside it, carol's wrong password:
  // her three tests fail, her sign-in is tried and counted once, and her password shows nowhere.
  const third = await runInlineProject({ 'playwright.config.ts': CONFIG, 'revoked.spec.ts': REVOKED_SPEC }, { env: demoEnv, dir: first.dir, args: ['revoked.spec.ts', 'carol.spec.ts', 'timeline-teardown'] });
  expect(third.passed, third.output).toBe(3);
  expect(third.failed, third.output).toBe(3);
  expect(summaryLines(third)).toEqual([expect.stringMatching(/^multiauth: 0 users signed in \(0\.00 s\), 1 from the cache, 0 refreshed, 1 signed in again \(status 401\), 0 denials kept, 1 failed; /)]);
  const thirdText = readFileSync(join(first.dir, 'test-results', 'multiauth-timeline.txt'), 'utf8');
  expect(rowsOf(thirdText)).toEqual(['worker N | carol | failed (AUTH_HTTP_STATUS)', 'worker N | dave | from the cache', 'worker N | dave | signed in again (status 401)']);
  expect(thirdText).toMatch(/carol +failed \(AUTH_HTTP_STATUS\)/);
  expect(third.output).not.toContain('carol-WRONG-pw');
});

// A failed sign-in's count is in the third run above, beside the revoked session.
test('a run that signs nobody in prints no line and writes no timeline', async ({ demoEnv }) => {
  const none = await runInlineProject({ 'multiauth.yaml': WRONG_CAROL_CONFIG, 'a.spec.ts': CAROL_SPEC }, { env: demoEnv, args: ['-g', 'signed out'] });
  expect(none.passed, none.output).toBe(1);
  expect(summaryLines(none)).toEqual([]);
  expect(existsSync(join(none.dir, 'test-results', 'multiauth-timeline.html'))).toBe(false);
});
