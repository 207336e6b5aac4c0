import { test, expect } from '@playwright/test';
import { MultiAuthError } from '../../../src/core/errors.js';
import { MASK, Redactor } from '../../../src/core/redactor.js';
import { exitCodeOf } from '../../../src/cli/io.js';
import { authenticate, signInUser } from '../../../src/runtime/engine/authenticate.js';
import { closeMailReaders } from '../../../src/runtime/engine/mailbox.js';
import { openMailReader, startMailSink, type MailReader, type MailSink } from '../../../src/runtime/mail/index.js';
import { sendTestMail } from '../../support/mail.js';
import { planFromYaml } from '../../support/plan.js';
import { readBody, sendJson, startHttpServer, type RunningServer } from '../../support/servers/node-http.js';

/**
 * The email step against the package's real sink: the application (a node:http server) sends real
 * SMTP mail with nodemailer before it answers, as real applications do.
 */
let sink: MailSink;
let reader: MailReader;
let app: RunningServer;
let tracker: RunningServer;
/** The code each address was sent last, and how often each path was asked. */
const codes = new Map<string, string>();
const hits = new Map<string, number>();
let counter = 0;

test.beforeAll(async () => {
  sink = await startMailSink({ host: '127.0.0.1', port: 0, apiPort: 0 });
  reader = await openMailReader({ kind: 'smtp', host: '127.0.0.1', port: sink.port, apiPort: sink.apiPort });
  // Another origin: a mail's tracking redirect.
  tracker = await startHttpServer((req, res) => {
    const target = new URL(req.url ?? '/', 'http://x').searchParams.get('u') ?? '/';
    res.writeHead(302, { location: target, 'set-cookie': 'trk=1; Path=/' });
    res.end();
  });
  app = await startHttpServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    const body = JSON.parse((await readBody(req)) || '{}') as { email?: string; code?: string };
    if (url.pathname === '/auth/code') {
      const code = String(500000 + ++counter);
      codes.set(body.email ?? '', code);
      await sendTestMail(sink.port, { to: body.email, subject: 'Your sign-in code', text: `Order 123456 shipped.\nYour code: ${code}\nRef 654321` });
      // Ghost's staff sign-in: 403 2FA_NEW_DEVICE_DETECTED, and a mailed code.
      sendJson(res, 403, { errors: [{ code: '2FA_NEW_DEVICE_DETECTED' }] });
    } else if (url.pathname === '/auth/verify') {
      const ok = body.code !== undefined && codes.get(body.email ?? '') === body.code;
      if (ok) codes.delete(body.email ?? '');
      sendJson(res, ok ? 200 : 401, { ok }, ok ? { 'set-cookie': `sid=sid-${body.code}; Path=/; HttpOnly` } : {});
    } else if (url.pathname === '/auth/verify-busy') {
      sendJson(res, 503, { error: 'busy' });
    } else if (url.pathname === '/auth/link') {
      const magic = `${app.url}/auth/magic?token=tok-${++counter}-${'x'.repeat(12)}`;
      const link = `${tracker.url}/t?u=${encodeURIComponent(magic)}&amp;src=mail`;
      await sendTestMail(sink.port, { to: body.email, subject: 'Sign in to App', html: `<p><a href="${app.url}/unsubscribe">unsubscribe</a></p><p><a href="${link}">Sign in</a></p>` });
      sendJson(res, 200, { sent: true });
    } else if (url.pathname === '/auth/magic') {
      sendJson(res, 200, { signedIn: true }, { 'set-cookie': `member=m-${url.searchParams.get('token')}; Path=/` });
    } else {
      sendJson(res, 404, {});
    }
  });
});

test.afterAll(async () => {
  await reader.close();
  await closeMailReaders();
  await Promise.all([app.close(), tracker.close()]);
  await sink.close();
});

test.beforeEach(() => hits.clear());

function plan(verify = '/auth/verify', wait = 10) {
  return planFromYaml(`
mail: { smtp: { port: ${sink.port}, api_port: ${sink.apiPort} } }
procedures:
  - name: code-login
    operations:
      - tech: http
        parameters: { url: "${app.url}/auth/code", method: POST, headers: [{ name: Content-Type, values: [application/json] }], body: { email: "{{email}}" }, accept_status: [403] }
      - tech: email
        parameters: { to: "{{email}}", subject: "(?i)sign-in code", wait_for_seconds: ${wait} }
        extractions: [{ name: code, location: body, regex: "code: (\\\\d{6})" }]
      - tech: http
        parameters: { url: "${app.url}${verify}", method: POST, headers: [{ name: Content-Type, values: [application/json] }], body: { email: "{{email}}", code: "{{code}}" } }
  - name: link-login
    operations:
      - tech: http
        parameters: { url: "${app.url}/auth/link", method: POST, headers: [{ name: Content-Type, values: [application/json] }], body: { email: "{{email}}" } }
      - tech: email
        parameters: { to: "{{email}}" }
        extractions: [{ name: magic, location: link, key: "${tracker.url}/t" }]
      - tech: http
        parameters: { url: "{{magic}}", method: GET }
users:
  - { name: alice, procedure: code-login, variables: [{ name: email, value: Alice@Example.test }] }
  - { name: bob, procedure: link-login, variables: [{ name: email, value: bob@example.test }] }
`);
}

const withReader = { mail: async () => reader };

test('a code sign-in: a 403 that accept_status allows, the code of the NEW mail picked by its context, an older code in the inbox ignored', async () => {
  // An older code for alice, already in the inbox: never the answer.
  await sendTestMail(sink.port, { to: 'alice@example.test', subject: 'Your sign-in code', text: 'Your code: 000000' });
  const redactor = new Redactor();
  const produced = await signInUser(plan(), 'alice', { redactor, ...withReader });
  expect(hits.get('/auth/verify')).toBe(1);
  expect(produced.cookies.map((c) => c.name)).toContain('sid');
  const sid = produced.cookies.find((c) => c.name === 'sid')!.value;
  expect(sid).toMatch(/^sid-5\d{5}$/);
  // The code is a secret, and the session (the cache) never keeps it.
  expect(produced.variables).not.toHaveProperty('code');
  expect(redactor.redact(`code ${sid.slice(4)}`)).toBe(`code ${MASK}`);
});

test('a re-sign-in waits for a new mail and sends its new code', async () => {
  const first = await signInUser(plan(), 'alice', { redactor: new Redactor(), ...withReader });
  const second = await signInUser(plan(), 'alice', { redactor: new Redactor(), ...withReader, previous: first });
  const sid = (result: typeof first) => result.cookies.find((c) => c.name === 'sid')!.value;
  expect(sid(second)).not.toBe(sid(first));
});

test('the process reader opens by itself from the plan\'s mail (a running sink), once', async () => {
  const session = await authenticate(plan(), 'alice', { redactor: new Redactor() });
  expect(session.cookies.some((c) => c.name === 'sid')).toBe(true);
});

test('a request carrying a code from a mail is sent once: a 503 is not retried', async () => {
  const error = await signInUser(plan('/auth/verify-busy'), 'alice', { redactor: new Redactor(), ...withReader }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MultiAuthError);
  expect((error as MultiAuthError).code).toBe('AUTH_HTTP_STATUS');
  expect(hits.get('/auth/verify-busy')).toBe(1);
});

test('a magic link behind a tracking redirect on another origin: opened once, the final origin\'s cookie kept', async () => {
  const redactor = new Redactor();
  const produced = await signInUser(plan(), 'bob', { redactor, ...withReader });
  expect(hits.get('/auth/magic')).toBe(1);
  const member = produced.cookies.find((c) => c.name === 'member');
  expect(member?.value).toMatch(/^m-tok-\d+-x{12}$/);
  expect(produced.variables).not.toHaveProperty('magic');
  expect(redactor.redact(member!.value.slice(2))).toBe(MASK);
});

test('EMAIL_TIMEOUT names the address, the mailbox, the wait and the others that came, masked, never a body (exit 1)', async () => {
  const slow = plan('/auth/verify', 1);
  // The start request mails someone else: alice's mail never comes.
  slow.procedures['code-login']!.operations[1] = { ...slow.procedures['code-login']!.operations[1]!, to: 'nobody@example.test' } as never;
  const error = await signInUser(slow, 'alice', { redactor: new Redactor(), ...withReader }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MultiAuthError);
  const failure = error as MultiAuthError;
  expect(failure.code).toBe('EMAIL_TIMEOUT');
  expect(exitCodeOf(failure.code)).toBe(1);
  const text = failure.render();
  expect(text).toContain('no mail to nobody@example.test with a subject matching /(?i)sign-in code/ arrived within 1 s');
  expect(text).toContain(`mailbox: the mail sink on 127.0.0.1:${sink.port}`);
  expect(text).toContain('"Your sign-in code" to alice@example.test');
  expect(text).toContain('user "alice", procedure "code-login", step 2 (email)');
  expect(text).not.toMatch(/5\d{5}/);
  expect(text).not.toContain('Order');
});
