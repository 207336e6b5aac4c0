import { request } from 'undici';
import { test as demoTest, expect } from '../support/demo.js';
import { freePort } from '../support/ports.js';
import { MAIL_NOT_CONFIGURED } from '../../fixtures/demo-server/index.js';
import { startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from './smtp-receiver.js';

/** The demo's mail sign-ins against a real SMTP server (smtp-server): what they send, and what they accept. */

const test = demoTest.extend<{ inbox: SmtpReceiver }>({
  inbox: async ({ demo }, use) => {
    const receiver = await startSmtpReceiver();
    demo.clear();
    demo.mailTo({ port: receiver.port });
    await use(receiver);
    demo.mailTo(undefined);
    await receiver.stop();
  },
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: Record<string, any>;
  cookies: Record<string, string>;
}

async function call(method: string, url: string, init: { body?: unknown; form?: Record<string, string>; cookie?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (init.cookie) headers.cookie = init.cookie;
  let body: string | undefined;
  if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  } else if (init.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.body);
  }
  const response = await request(url, { method: method as 'GET', headers, body });
  const text = await response.body.text();
  const setCookie = response.headers['set-cookie'];
  const cookies = Object.fromEntries(
    (Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []).map((line) => {
      const pair = line.split(';')[0] ?? '';
      return [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
    }),
  );
  let json: Record<string, any> = {};
  try {
    json = JSON.parse(text) as Record<string, any>;
  } catch {}
  return { status: response.statusCode, headers: response.headers, text, json, cookies };
}

async function whoami(url: string, sid: string | undefined) {
  return call('GET', `${url}/whoami`, { cookie: `sid=${sid}` });
}

function codeOf(mail: ReceivedMail): string {
  return /sign-in code is (\d{6})/.exec(mail.parsed.text ?? '')?.[1] ?? 'no code';
}

function hrefs(html: string): string[] {
  return [...html.matchAll(/href="([^"]*)"/g)].map((m) => (m[1] ?? '').replaceAll('&amp;', '&'));
}

test('without an SMTP target, every mail route answers 503 mail_not_configured and sends nothing', async ({ demo }) => {
  demo.mailTo(undefined);
  const expected = { error: 'mail_not_configured', message: MAIL_NOT_CONFIGURED };
  expect((await call('POST', `${demo.url}/email-code/start`, { body: { email: 'alice@demo.test' } })).json).toEqual(expected);
  expect((await call('POST', `${demo.url}/magic-link/start`, { body: { email: 'alice@demo.test' } })).status).toBe(503);
  const second = await call('POST', `${demo.url}/mail-2fa/session`, { body: { username: 'alice', password: 'alice-password' } });
  expect(second).toMatchObject({ status: 503, json: expected });
});

test('an SMTP server that is not there: 502 mail_failed naming where it tried', async ({ demo }) => {
  const port = await freePort();
  demo.mailTo({ port });
  const answer = await call('POST', `${demo.url}/email-code/start`, { body: { email: 'alice@demo.test' } });
  demo.mailTo(undefined);
  expect(answer.status).toBe(502);
  expect(answer.json.error).toBe('mail_failed');
  expect(answer.json.message).toContain(`127.0.0.1:${port}`);
});

test('emailed code: a mail to the address with the code after a reference number; the code works once', async ({ demo, inbox }) => {
  const started = await call('POST', `${demo.url}/email-code/start`, { body: { email: 'Bob+w1@demo.test' } });
  expect(started).toMatchObject({ status: 200, json: { sent: true } });
  expect(inbox.mails).toHaveLength(1);
  const mail = inbox.mails[0] as ReceivedMail;
  expect(mail.recipients).toEqual(['bob+w1@demo.test']);
  expect(mail.parsed.subject).toBe('Your Demo sign-in code');
  const text = mail.parsed.text ?? '';
  const reference = /reference (\d{6})/.exec(text)?.[1] as string;
  const code = codeOf(mail);
  expect(text.indexOf(reference)).toBeLessThan(text.indexOf(code));
  expect(hrefs(String(mail.parsed.html)).length).toBe(2);

  expect((await call('POST', `${demo.url}/email-code/verify`, { body: { email: 'bob+w1@demo.test', code: reference } })).json.error).toBe('invalid_code');
  const verified = await call('POST', `${demo.url}/email-code/verify`, { body: { email: 'bob+w1@demo.test', code } });
  expect(verified).toMatchObject({ status: 200, json: { user: 'bob', expires_in: 3600 } });
  expect((await whoami(demo.url, verified.cookies.sid)).json).toMatchObject({ user: 'bob', via: 'cookie' });
  expect((await call('GET', `${demo.url}/whoami`, { cookie: `token=${verified.json.access_token}` })).json).toMatchObject({ user: 'bob' });
  const again = await call('POST', `${demo.url}/email-code/verify`, { body: { email: 'bob+w1@demo.test', code } });
  expect(again).toMatchObject({ status: 401, json: { error: 'invalid_code' } });
  expect(again.text).not.toContain(code);
  expect(demo.counters.signIns).toEqual({ bob: 1 });
});

test('emailed code: a new start voids the older code; codes expire; five wrong codes void one', async ({ demo, inbox }) => {
  const email = 'carol@demo.test';
  await call('POST', `${demo.url}/email-code/start`, { body: { email } });
  await call('POST', `${demo.url}/email-code/start`, { body: { email } });
  const [older, newer] = inbox.mails.map(codeOf) as [string, string];
  if (older !== newer) expect((await call('POST', `${demo.url}/email-code/verify`, { body: { email, code: older } })).status).toBe(401);
  expect((await call('POST', `${demo.url}/email-code/verify`, { body: { email, code: newer } })).status).toBe(200);

  demo.state.mailSignIns.ttlMs = 1;
  try {
    await call('POST', `${demo.url}/email-code/start`, { body: { email } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const late = await call('POST', `${demo.url}/email-code/verify`, { body: { email, code: codeOf(inbox.mails[2] as ReceivedMail) } });
    expect(late.json.error).toBe('expired_code');
  } finally {
    demo.state.mailSignIns.ttlMs = 10 * 60_000;
  }

  await call('POST', `${demo.url}/email-code/start`, { body: { email } });
  const code = codeOf(inbox.mails[3] as ReceivedMail);
  const wrong = code === '000000' ? '000001' : '000000';
  const errors = [];
  for (let i = 0; i < 5; i++) errors.push((await call('POST', `${demo.url}/email-code/verify`, { body: { email, code: wrong } })).json.error);
  expect(errors).toEqual(['invalid_code', 'invalid_code', 'invalid_code', 'invalid_code', 'too_many_attempts']);
  expect((await call('POST', `${demo.url}/email-code/verify`, { body: { email, code } })).status).toBe(401);
});

test('emailed code: an address without an account gets the same answer and no mail; the form flow ends on /app', async ({ demo, inbox }) => {
  expect((await call('POST', `${demo.url}/email-code/start`, { body: { email: 'mallory@demo.test' } })).json).toMatchObject({ sent: true });
  expect((await call('POST', `${demo.url}/email-code/start`, { body: { email: 'alice@example.com' } })).json).toMatchObject({ sent: true });
  expect(inbox.mails).toHaveLength(0);
  expect((await call('GET', `${demo.url}/email-code`)).text).toContain('id="email"');
  const page = await call('POST', `${demo.url}/email-code/start`, { form: { email: 'alice@demo.test' } });
  expect(page.text).toContain('id="code"');
  const wrong = await call('POST', `${demo.url}/email-code/verify`, { form: { email: 'alice@demo.test', code: 'abc' } });
  expect(wrong.status).toBe(401);
  expect(wrong.text).toContain('id="error"');
  const done = await call('POST', `${demo.url}/email-code/verify`, { form: { email: 'alice@demo.test', code: codeOf(inbox.mails[0] as ReceivedMail) } });
  expect(done).toMatchObject({ status: 303, headers: { location: '/app' } });
  expect((await whoami(demo.url, done.cookies.sid)).json).toMatchObject({ user: 'alice' });
});

test('magic link: HTML only, quoted-printable, undisclosed recipients, &amp; in the href, behind a tracker on the other host name', async ({ demo, inbox }) => {
  const started = await call('POST', `${demo.url}/magic-link/start`, { body: { email: 'dave@demo.test' } });
  expect(started.status).toBe(200);
  const bind = started.cookies.ml_bind as string;
  expect(bind).toMatch(/^[0-9a-f]{32}$/);
  const mail = inbox.mails[0] as ReceivedMail;
  expect(mail.recipients).toEqual(['dave@demo.test']);
  expect(mail.raw).toMatch(/^To: "?undisclosed-recipients"?:;/m);
  expect(mail.raw).toMatch(/^Content-Type: text\/html/m);
  expect(mail.raw).not.toMatch(/text\/plain/);
  expect(mail.raw).toMatch(/^Content-Transfer-Encoding: quoted-printable/m);
  expect(mail.raw).toContain('=3D');
  expect(mail.raw).toMatch(/=\r\n/);
  const html = String(mail.parsed.html);
  expect(html).toMatch(/href="[^"]*\/t\/click\?m=[^"]*&amp;u=/);
  const links = hrefs(html);
  expect(links).toHaveLength(3);
  const tracked = new URL(links[1] as string);
  expect(tracked.origin).toBe(demo.url.replace('127.0.0.1', 'localhost'));

  const hop = await call('GET', tracked.href);
  expect(hop.status).toBe(302);
  const target = new URL(String(hop.headers.location));
  expect(target.origin).toBe(demo.url);
  expect(target.pathname).toBe('/magic-link/verify');
  const signedIn = await call('GET', target.href, { cookie: `ml_bind=${bind}` });
  expect(signedIn).toMatchObject({ status: 303, headers: { location: '/app' } });
  expect((await whoami(demo.url, signedIn.cookies.sid)).json).toMatchObject({ user: 'dave', via: 'cookie' });
  expect((await call('GET', target.href, { cookie: `ml_bind=${bind}` })).status).toBe(410);
});

test('magic link: bound to the browser that asked (another browser uses it up, signed out), voided by a newer link; the tracker goes nowhere else', async ({ demo, inbox }) => {
  const linkOf = (mail: ReceivedMail) => decodeURIComponent(new URL(hrefs(String(mail.parsed.html))[1] as string).searchParams.get('u') as string);
  const first = await call('POST', `${demo.url}/magic-link/start`, { body: { email: 'erin@demo.test' } });
  const elsewhere = await call('GET', linkOf(inbox.mails[0] as ReceivedMail));
  expect(elsewhere.status).toBe(403);
  expect(elsewhere.cookies.sid).toBeUndefined();
  expect((await call('GET', linkOf(inbox.mails[0] as ReceivedMail), { cookie: `ml_bind=${first.cookies.ml_bind}` })).status).toBe(410);

  const older = await call('POST', `${demo.url}/magic-link/start`, { form: { email: 'erin@demo.test' } });
  expect(older.text).toContain('id="sent"');
  const newer = await call('POST', `${demo.url}/magic-link/start`, { form: { email: 'erin@demo.test' } });
  expect((await call('GET', linkOf(inbox.mails[1] as ReceivedMail), { cookie: `ml_bind=${older.cookies.ml_bind}` })).status).toBe(410);
  expect((await call('GET', linkOf(inbox.mails[2] as ReceivedMail), { cookie: `ml_bind=${newer.cookies.ml_bind}` })).status).toBe(303);
  expect((await call('GET', `${demo.url}/t/click?u=${encodeURIComponent('http://evil.test/')}`)).status).toBe(400);
});

test('password and mailed second factor: 403 2FA_NEW_DEVICE_DETECTED, a base64 mail with the code in its Subject, then a signed-in sid and a known device', async ({ demo, inbox }) => {
  const wrong = await call('POST', `${demo.url}/mail-2fa/session`, { body: { username: 'alice', password: 'nope' } });
  expect(wrong.status).toBe(401);
  expect(inbox.mails).toHaveLength(0);

  const first = await call('POST', `${demo.url}/mail-2fa/session`, { body: { username: 'alice', password: 'alice-password' } });
  expect(first.status).toBe(403);
  expect(first.json.errors[0]).toMatchObject({ code: '2FA_NEW_DEVICE_DETECTED', type: 'NoPermissionError' });
  const sid = first.cookies.sid as string;
  expect((await whoami(demo.url, sid)).status).toBe(401);
  const mail = inbox.mails[0] as ReceivedMail;
  expect(mail.recipients).toEqual(['alice@demo.test']);
  expect(mail.raw).toMatch(/^Content-Transfer-Encoding: base64/m);
  expect(mail.raw).not.toMatch(/verification code is/);
  expect(mail.raw).toMatch(/^Subject: =\?UTF-8\?/m);
  const code = /(\d{6}) is your Demo verification code/.exec(mail.parsed.subject ?? '')?.[1] as string;
  expect(mail.parsed.text).toContain(`Your verification code is ${code}.`);

  const bad = await call('PUT', `${demo.url}/mail-2fa/session/verify`, { body: { token: code === '000000' ? '000001' : '000000' }, cookie: `sid=${sid}` });
  expect(bad.json.errors[0].code).toBe('2FA_TOKEN_INVALID');
  expect((await call('PUT', `${demo.url}/mail-2fa/session/verify`, { body: { token: code } })).status).toBe(401);
  const verified = await call('PUT', `${demo.url}/mail-2fa/session/verify`, { body: { token: code }, cookie: `sid=${sid}` });
  expect(verified).toMatchObject({ status: 200, json: { user: 'alice' } });
  expect((await whoami(demo.url, sid)).json).toMatchObject({ user: 'alice', via: 'cookie' });

  const known = await call('POST', `${demo.url}/mail-2fa/session`, { body: { username: 'alice@demo.test', password: 'alice-password' }, cookie: `demo_device=${verified.cookies.demo_device}` });
  expect(known.status).toBe(201);
  expect((await whoami(demo.url, known.cookies.sid)).json).toMatchObject({ user: 'alice' });
  expect(inbox.mails).toHaveLength(1);
  expect(demo.counters.signIns).toEqual({ alice: 2 });
});
