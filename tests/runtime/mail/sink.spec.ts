import { test, expect } from '@playwright/test';
import { createServer } from 'node:net';
import { request } from 'node:http';
import { MultiAuthError } from '../../../src/core/errors.js';
import { openMailReader, startMailSink, type MailQuery, type MailReader, type MailSink } from '../../../src/runtime/mail/index.js';
import { MAIL_LIMITS } from '../../../src/runtime/mail/limits.js';
import { freePort } from '../../support/ports.js';
import { sendTestMail } from '../../support/mail.js';

let sink: MailSink;
let reader: MailReader;

test.beforeEach(async () => {
  sink = await startMailSink({ host: '127.0.0.1', port: 0, apiPort: 0 });
  reader = await openMailReader({ kind: 'smtp', host: '127.0.0.1', port: sink.port, apiPort: sink.apiPort });
});

test.afterEach(async () => {
  await reader.close();
  await sink.close();
});

async function query(to: string, extra: Partial<MailQuery> = {}): Promise<MailQuery> {
  return { to, after: await reader.cursor(), timeoutMs: 5_000, ...extra };
}

test('a mail sent over SMTP reaches the waiting reader, decoded, with its envelope recipients lower-cased', async () => {
  const wait = reader.waitFor(await query('alice@example.test'));
  await sendTestMail(sink.port, { from: 'Shop <No-Reply@Shop.Example>', to: 'Alice@Example.test', subject: '=?UTF-8?B?Vm90cmUgY29kZSDDqXTDqQ==?=', text: 'Your code is 424242.' });
  const result = await wait;
  expect(result.kind).toBe('found');
  if (result.kind !== 'found') return;
  expect(result.message).toMatchObject({ recipients: ['alice@example.test'], from: 'no-reply@shop.example', subject: 'Votre code été' });
  // mailparser ends a decoded text part with a newline.
  expect(result.message.text).toBe('Your code is 424242.\n');
  expect(result.message.headers).toContainEqual(['Subject', 'Votre code été']);
  expect(Date.now() - result.message.arrivedAt).toBeLessThan(5_000);
});

test('the recipient is matched exactly on the envelope: not by the To header, not by a longer address, in any case', async () => {
  const wait = reader.waitFor(await query('ALICE@example.test'));
  await sendTestMail(sink.port, { to: 'malice@example.test', subject: 'for malice', text: 'x' });
  await sendTestMail(sink.port, { raw: 'From: app@example.test\r\nTo: alice@example.test\r\nSubject: header says alice\r\n\r\nnot for alice\r\n', envelope: { from: 'app@example.test', to: ['bob@example.test'] } });
  await sendTestMail(sink.port, { raw: 'From: app@example.test\r\nTo: undisclosed-recipients:;\r\nSubject: for alice\r\n\r\nyour code 111111\r\n', envelope: { from: 'app@example.test', to: ['alice@example.test'] } });
  const result = await wait;
  expect(result.kind === 'found' && result.message.subject).toBe('for alice');
});

test('mail that arrived before the cursor is never the answer, even for the same recipient', async () => {
  await sendTestMail(sink.port, { to: 'alice@example.test', subject: 'old code', text: 'code 000000' });
  const q = await query('alice@example.test', { timeoutMs: 400 });
  expect(await reader.waitFor(q)).toMatchObject({ kind: 'timeout' });
  const wait = reader.waitFor({ ...q, timeoutMs: 10_000 });
  await sendTestMail(sink.port, { to: 'alice@example.test', subject: 'new code', text: 'code 123456' });
  const result = await wait;
  expect(result.kind === 'found' && result.message.subject).toBe('new code');
});

test('subject and from filter; of several that arrived together, the newest is the answer', async () => {
  const q = await query('alice@example.test', { subject: (s) => s.includes('code'), from: (a) => a.endsWith('@shop.example') });
  await sendTestMail(sink.port, { from: 'news@other.example', to: 'alice@example.test', subject: 'code from elsewhere', text: 'x' });
  await sendTestMail(sink.port, { to: 'alice@example.test', from: 'a@shop.example', subject: 'newsletter', text: 'x' });
  // Both held when the wait starts (an application that sent twice): the sink hands them over together.
  await sendTestMail(sink.port, { to: 'alice@example.test', from: 'a@shop.example', subject: 'code one', text: '1' });
  await sendTestMail(sink.port, { to: 'alice@example.test', from: 'a@shop.example', subject: 'code two', text: '2' });
  const result = await reader.waitFor(q);
  expect(result.kind === 'found' && result.message.subject).toBe('code two');
});

test('the answer is pushed: it comes after the quiet time, with no poll in between', async () => {
  const delays: number[] = [];
  for (let n = 0; n < 5; n++) {
    const wait = reader.waitFor(await query(`push${n}@example.test`));
    await sendTestMail(sink.port, { to: `push${n}@example.test`, subject: 'code', text: String(n) });
    const result = await wait;
    if (result.kind !== 'found') throw new Error('not found');
    delays.push(Date.now() - result.message.arrivedAt);
  }
  delays.sort((a, b) => a - b);
  expect(delays[2]).toBeGreaterThanOrEqual(MAIL_LIMITS.quietMs - 2);
  // The figure itself (under 50 ms on an idle machine) is the bench's (mail-arrival); on a machine
  // shared by many runs this only shows no poll of a second or more is in between.
  expect(delays[2]).toBeLessThan(1_000);
});

test('a timeout says what else arrived: the last five subjects and recipients, and how many, never a body', async () => {
  const q = await query('alice@example.test', { timeoutMs: 300, subject: (s) => s === 'never' });
  // Sent after the cursor and before the wait: the sink hands the wait what it holds after the cursor.
  for (let n = 1; n <= 7; n++) await sendTestMail(sink.port, { to: n === 7 ? 'alice@example.test' : `user${n}@example.test`, subject: `subject ${n}`, text: `body-secret-${n}` });
  const result = await reader.waitFor(q);
  expect(result.kind).toBe('timeout');
  if (result.kind !== 'timeout') return;
  expect(result.waitedMs).toBeGreaterThanOrEqual(290);
  expect(result.otherCount).toBe(7);
  expect(result.others).toEqual([3, 4, 5, 6, 7].map((n) => ({ recipients: [n === 7 ? 'alice@example.test' : `user${n}@example.test`], subject: `subject ${n}` })));
  expect(JSON.stringify(result)).not.toContain('body-secret');
});

test('an HTML-only quoted-printable mail and a base64 one are decoded: the text comes from the HTML when there is none', async () => {
  const wait = reader.waitFor(await query('qp@example.test'));
  const link = 'https://app.example/magic?token=abc&next=%2Fhome';
  await sendTestMail(sink.port, { to: 'qp@example.test', subject: 'link', html: `<p>Sign in: <a href="${link.replace('&', '&amp;')}">here</a> ${'x'.repeat(120)}</p>`, textEncoding: 'quoted-printable' });
  const result = await wait;
  if (result.kind !== 'found') throw new Error('not found');
  expect(result.message.html).toContain(`href="${link.replace('&', '&amp;')}"`);
  expect(result.message.text).toContain('Sign in');
  const wait64 = reader.waitFor(await query('b64@example.test'));
  await sendTestMail(sink.port, { to: 'b64@example.test', subject: 'code', text: 'Your code: 987654', textEncoding: 'base64' });
  const base64 = await wait64;
  expect(base64.kind === 'found' && base64.message.text?.trim()).toBe('Your code: 987654');
});

test('bounds: a mail over the size limit is refused at SMTP; one nested deeper than allowed keeps its headers only', async () => {
  await expect(sendTestMail(sink.port, { to: 'big@example.test', subject: 'big', text: 'x'.repeat(MAIL_LIMITS.mailBytes + 1) })).rejects.toThrow(/552/);
  expect(sink.store.last).toBe(0);
  const wait = reader.waitFor(await query('deep@example.test'));
  const open = Array.from({ length: MAIL_LIMITS.mimeDepth + 1 }, (_, i) => `--b${i - 1}\r\nContent-Type: multipart/mixed; boundary=b${i}\r\n\r\n`).join('').replace(/^--b-1\r\n/, '');
  const raw = `From: app@example.test\r\nSubject: deep\r\nMIME-Version: 1.0\r\n${open}--b${MAIL_LIMITS.mimeDepth}\r\nContent-Type: text/plain\r\n\r\nsecret text\r\n`;
  await sendTestMail(sink.port, { raw, envelope: { from: 'app@example.test', to: ['deep@example.test'] } });
  const result = await wait;
  if (result.kind !== 'found') throw new Error('not found');
  expect(result.message.subject).toBe('deep');
  expect(result.message.text).toBeUndefined();
});

test('the API serves loopback names only, and no cross-origin page', async () => {
  const status = (host: string) => new Promise<{ status: number; cors: unknown }>((resolve, reject) => {
    request({ host: '127.0.0.1', port: sink.apiPort, path: '/health', headers: { host } }, (response) => {
      response.resume();
      resolve({ status: response.statusCode ?? 0, cors: response.headers['access-control-allow-origin'] });
    }).on('error', reject).end();
  });
  expect(await status(`127.0.0.1:${sink.apiPort}`)).toEqual({ status: 200, cors: undefined });
  expect(await status(`localhost:${sink.apiPort}`)).toEqual({ status: 200, cors: undefined });
  expect((await status(`attacker.example:${sink.apiPort}`)).status).toBe(403);
});

test('mail is kept in arrival order and bounded in count: the oldest go first', async () => {
  const { MailStore } = await import('../../../src/runtime/mail/store.js');
  const store = new MailStore({ mails: 3, storeBytes: 1_000_000 });
  const message = (subject: string) => ({ id: '', arrivedAt: Date.now(), recipients: ['a@x.test'], from: '', subject, headers: [] });
  for (const subject of ['1', '2', '3', '4', '5']) store.add(message(subject), 10);
  expect(store.after(0).map((mail) => [mail.seq, mail.message.subject])).toEqual([[3, '3'], [4, '4'], [5, '5']]);
  expect(store.after(4).map((mail) => mail.message.id)).toEqual(['5']);
});

test.describe('without a sink running', () => {
  test('a worker gets a clear error that says to add webServer: mailSink(); the CLI starts one in-process', async () => {
    const [port, apiPort] = [await freePort(), await freePort()];
    const source = { kind: 'smtp' as const, host: '127.0.0.1', port, apiPort };
    const error = await openMailReader(source).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MultiAuthError);
    expect((error as MultiAuthError).code).toBe('MAIL_UNAVAILABLE');
    expect((error as MultiAuthError).message).toBe(`no mail sink is listening on 127.0.0.1:${apiPort} (the API of mail.smtp on 127.0.0.1:${port})`);
    expect((error as MultiAuthError).hint).toContain('webServer: mailSink()');
    const own = await openMailReader(source, { startSinkIfNone: true });
    try {
      const wait = own.waitFor({ to: 'cli@example.test', after: await own.cursor(), timeoutMs: 5_000 });
      await sendTestMail(port, { to: 'cli@example.test', subject: 'from the CLI', text: 'x' });
      expect((await wait).kind).toBe('found');
    } finally {
      await own.close();
    }
    // Closed with its reader: the port is free again.
    expect(await openMailReader(source).catch((e: MultiAuthError) => e.code)).toBe('MAIL_UNAVAILABLE');
  });

  test('a taken port is an error that names it and what to do', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const taken = (holder.address() as { port: number }).port;
    try {
      const error = await startMailSink({ host: '127.0.0.1', port: taken, apiPort: await freePort() }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MultiAuthError);
      expect((error as MultiAuthError).code).toBe('MAIL_UNAVAILABLE');
      expect((error as MultiAuthError).message).toBe(`the mail sink cannot listen on 127.0.0.1:${taken} (its SMTP): the port is taken`);
      expect((error as MultiAuthError).hint).toContain('mail.smtp.port');
    } finally {
      holder.close();
    }
  });
});
