import { test, expect } from '@playwright/test';
import { MultiAuthError } from '../../../src/core/errors.js';
import { openMailReader, type MailReader } from '../../../src/runtime/mail/index.js';
import { freePort } from '../../support/ports.js';
import { sendTestMail } from '../../support/mail.js';
import { startMaildev, type Maildev } from '../../support/servers/maildev.js';

// One maildev (a node process) for the file: each test takes its own cursor and recipients.
let maildev: Maildev;
let reader: MailReader;

test.beforeAll(async () => {
  maildev = await startMaildev();
  reader = await openMailReader({ kind: 'maildev', url: maildev.url });
});

test.afterAll(async () => {
  await reader?.close();
  await maildev?.stop();
});

test('the real maildev: the mail for the envelope recipient after the cursor, parsed; older mail and other recipients are not', async () => {
  const before = (await reader.cursor()).position;
  await sendTestMail(maildev.smtpPort, { to: 'alice@example.test', subject: 'old code', text: 'code 000000' });
  // maildev answers 250 before it stores the mail: the old code is in the inbox once the listing shows it.
  await expect.poll(async () => (await reader.cursor()).position).not.toBe(before);
  const after = await reader.cursor();
  const wait = reader.waitFor({ to: 'ALICE@example.test', after, timeoutMs: 10_000 });
  await sendTestMail(maildev.smtpPort, { to: 'malice@example.test', subject: 'for malice', text: 'x' });
  await sendTestMail(maildev.smtpPort, { raw: 'From: app@example.test\r\nTo: undisclosed-recipients:;\r\nSubject: new code\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\nWW91ciBjb2RlOiA0MjQyNDI=\r\n', envelope: { from: 'app@example.test', to: ['Alice@Example.test'] } });
  const result = await wait;
  if (result.kind !== 'found') throw new Error(`not found: ${JSON.stringify(result)}`);
  expect(result.message).toMatchObject({ recipients: ['alice@example.test'], subject: 'new code' });
  expect(result.message.text?.trim()).toBe('Your code: 424242');
});

test('order is maildev\'s arrival time, not the Date header; a timeout lists what else arrived, never a body', async () => {
  let after = await reader.cursor();
  await sendTestMail(maildev.smtpPort, { raw: 'From: app@example.test\r\nDate: Sat, 1 Jan 2050 00:00:00 +0000\r\nSubject: first, dated later\r\n\r\n1\r\n', envelope: { from: 'app@example.test', to: ['bob@example.test'] } });
  await sendTestMail(maildev.smtpPort, { raw: 'From: app@example.test\r\nDate: Mon, 1 Jan 2001 00:00:00 +0000\r\nSubject: second, dated earlier\r\n\r\n2\r\n', envelope: { from: 'app@example.test', to: ['bob@example.test'] } });
  expect(await reader.waitFor({ to: 'bob@example.test', after, timeoutMs: 10_000 })).toMatchObject({ kind: 'found', message: { subject: 'second, dated earlier' } });
  after = await reader.cursor();
  await sendTestMail(maildev.smtpPort, { to: 'dave@example.test', subject: 'for dave', text: 'body-secret' });
  const result = await reader.waitFor({ to: 'carol@example.test', after, timeoutMs: 1_000 });
  expect(result).toMatchObject({ kind: 'timeout', others: [{ recipients: ['dave@example.test'], subject: 'for dave' }], otherCount: 1 });
  expect(JSON.stringify(result)).not.toContain('body-secret');
});

test('an unreachable maildev is a clear error naming the URL', async () => {
  const port = await freePort();
  const error = await openMailReader({ kind: 'maildev', url: `http://127.0.0.1:${port}/` }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MultiAuthError);
  expect((error as MultiAuthError).message).toBe(`maildev at http://127.0.0.1:${port} cannot be read: GET http://127.0.0.1:${port}/api/healthz failed (ECONNREFUSED)`);
  expect((error as MultiAuthError).code).toBe('MAIL_UNAVAILABLE');
});
