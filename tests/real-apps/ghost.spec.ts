import { test, expect } from '@playwright/test';
import { openMailReader, startMailSink, type MailMessage, type MailReader, type MailSink } from '../../src/runtime/mail/index.js';
import { inlineConfig, runInlineProject } from '../support/inline-project.js';
import { signUpMember, startGhost, type GhostServer } from '../support/servers/ghost.js';

/**
 * Issue 37's real application: Ghost 5.130.6 (npm, installed as ghost-cli does), which nobody here
 * wrote, mailing through the package's sink. Its staff owner signs in with a password and then the
 * code Ghost mails to a new device (the first step answers 403 `2FA_NEW_DEVICE_DETECTED`; the code
 * is in the Subject); a member signs in by the magic link Ghost mails. Both are plain config, used
 * by a Playwright project through `authUser`: pages and `authedRequest` signed in, one mail per
 * user per run, and a second run from the cache sends none.
 */
test.describe.configure({ mode: 'serial', timeout: 600_000 });

const MEMBER = 'member@demo.test';
let sink: MailSink;
let reader: MailReader;
let ghost: GhostServer;

/** The config a team would write for Ghost: its staff sign-in as a procedure, its members by the link preset. */
function ghostConfig(): string {
  return `
mail:
  smtp: { port: ${sink.port}, api_port: ${sink.apiPort} }
users:
  - name: owner
    procedure: ghost-staff
    credentials: { username: ${ghost.owner.email}, password: "\${GHOST_OWNER_PASSWORD}" }
procedures:
  - name: ghost-staff
    operations:
      - tech: http
        parameters:
          url: ${ghost.url}/ghost/api/admin/session/
          method: POST
          headers: [{ name: Origin, values: ["${ghost.url}"] }]
          body: { username: "{{username}}", password: "{{password}}" }
          accept_status: [403]
      - tech: email
        parameters: { to: ${ghost.owner.email}, subject: "verification code", wait_for_seconds: 90 }
        extractions:
          - { name: code, location: header, key: Subject, regex: "^(\\\\d{6}) is your Ghost" }
      - tech: http
        parameters:
          url: ${ghost.url}/ghost/api/admin/session/verify/
          method: PUT
          headers: [{ name: Origin, values: ["${ghost.url}"] }]
          body: { token: "{{code}}" }
presets:
  - type: email_link
    start:
      url: ${ghost.url}/members/api/send-magic-link/
      method: POST
      body: { email: "{{email}}", emailType: signin }
    link: "/members/"
    users:
      - { username: member, email: ${MEMBER} }
`;
}

const SPECS = {
  'owner.spec.ts': `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'owner' });
test('owner: the admin API answers as the owner', async ({ authedRequest }) => {
  const me = await authedRequest.get('/ghost/api/admin/users/me/');
  expect(me.status()).toBe(200);
  expect((await me.json()).users[0].email).toBe('owner@demo.test');
});
test('owner: a page of the admin API, in the signed-in context', async ({ page }) => {
  const answer = await page.goto('/ghost/api/admin/users/me/');
  expect(answer?.status()).toBe(200);
  await expect(page.locator('body')).toContainText('owner@demo.test');
});
`,
  'member.spec.ts': `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'member' });
test('member: the members API answers as the member', async ({ authedRequest }) => {
  const me = await authedRequest.get('/members/api/member/');
  expect(me.status()).toBe(200);
  expect((await me.json()).email).toBe('${MEMBER}');
});
test('member: the site, in the signed-in browser, knows the member', async ({ page }) => {
  await page.goto('/');
  const me = await page.evaluate(async () => { const r = await fetch('/members/api/member/'); return { status: r.status, body: r.status === 200 ? await r.json() : null }; });
  expect(me.status).toBe(200);
  expect(me.body.email).toBe('${MEMBER}');
});
`,
  'anonymous.spec.ts': `
import { test, expect } from '@playwright/test';
test('anonymous: refused by the admin API, no member', async ({ request }) => {
  expect((await request.get('/ghost/api/admin/users/me/')).status()).toBe(403);
  expect((await request.get('/members/api/member/')).status()).toBe(204);
});
`,
};

/** The mails of the sink after `seq`, as (recipient, subject) pairs. */
function mailsAfter(seq: number): Array<[string, string]> {
  return sink.store.after(seq).map(({ message }) => [message.recipients.join(','), message.subject ?? '']);
}

async function linkFor(to: string, after: Awaited<ReturnType<MailReader['cursor']>>): Promise<string> {
  const found = await reader.waitFor({ to, after, timeoutMs: 60_000 });
  if (found.kind !== 'found') throw new Error(`no mail to ${to} within 60 s`);
  const text = (found.message as MailMessage).text ?? '';
  const link = /https?:\/\/\S+\/members\/\?token=[^\s"<>]+/.exec(text)?.[0];
  if (!link) throw new Error(`no members link in the mail to ${to}`);
  return link;
}

test.beforeAll(async () => {
  test.setTimeout(600_000);
  sink = await startMailSink({ host: '127.0.0.1', port: 0, apiPort: 0 });
  reader = await openMailReader({ kind: 'smtp', host: '127.0.0.1', port: sink.port, apiPort: sink.apiPort });
  ghost = await startGhost({ smtpPort: sink.port });
  const before = await reader.cursor();
  await signUpMember(ghost, MEMBER, (to) => linkFor(to, before));
});

test.afterAll(async () => {
  await reader?.close();
  await ghost?.stop();
  await sink?.close();
});

test('Ghost: the owner by password and emailed code, a member by magic link; one mail each per run; a second run sends none', async () => {
  const seq = sink.store.last;
  const env = { DEMO_URL: ghost.url, GHOST_OWNER_PASSWORD: ghost.owner.password };
  // Ghost hashes the password and renders its mail in the sign-in: slower than the default 30 s a test has on a loaded machine.
  const files = { 'playwright.config.ts': inlineConfig('timeout: 180_000,'), 'multiauth.yaml': ghostConfig(), ...SPECS };
  const first = await runInlineProject(files, { env });
  expect(first.exitCode, first.output).toBe(0);
  expect(first.passed).toBe(5);
  expect(first.output).toMatch(/^multiauth: 2 users signed in \(\d+\.\d\d s\), 0 from the cache, .* 0 failed; /m);
  // One code to the owner and one link to the member: Ghost rate-limits both.
  const sent = mailsAfter(seq);
  expect(sent.map(([to]) => to).sort()).toEqual([ghost.owner.email, MEMBER].sort());
  expect(sent.find(([to]) => to === ghost.owner.email)?.[1]).toMatch(/^\d{6} is your Ghost sign in verification code$/);
  // No code, link or password in the run's output.
  const codes = sent.map(([, subject]) => /^(\d{6})/.exec(subject)?.[1]).filter((c): c is string => !!c);
  for (const secret of [ghost.owner.password, ...codes]) expect(first.output).not.toContain(secret);

  const again = sink.store.last;
  const second = await runInlineProject({ 'playwright.config.ts': files['playwright.config.ts'] }, { env, dir: first.dir });
  expect(second.exitCode, second.output).toBe(0);
  expect(second.passed).toBe(5);
  expect(second.output).toMatch(/^multiauth: 0 users signed in \(0\.00 s\), 2 from the cache, /m);
  expect(mailsAfter(again)).toEqual([]);
});
