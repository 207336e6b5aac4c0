import { test, expect } from '@playwright/test';
import { MultiAuthError } from '../../../src/core/errors.js';
import { openMailReader, type MailReader } from '../../../src/runtime/mail/index.js';
import { freePort } from '../../support/ports.js';
import { sendTestMail } from '../../support/mail.js';
import { startMailpitStandIn, type MailpitStandIn } from '../../support/servers/mailpit.js';
import { startHttpServer } from '../../support/servers/node-http.js';

let mailpit: MailpitStandIn;
let reader: MailReader;

test.beforeEach(async () => {
  mailpit = await startMailpitStandIn();
  reader = await openMailReader({ kind: 'mailpit', url: `${mailpit.url}/` });
});

test.afterEach(async () => {
  await reader.close();
  await mailpit.close();
});

test('a mail to the recipient after the cursor is read through the API and parsed; older mail and other recipients are not', async () => {
  await sendTestMail(mailpit.smtpPort, { to: 'alice@example.test', subject: 'old code', text: 'code 000000' });
  const after = await reader.cursor();
  const wait = reader.waitFor({ to: 'Alice@Example.test', after, timeoutMs: 5_000 });
  await sendTestMail(mailpit.smtpPort, { to: 'malice@example.test', subject: 'for malice', text: 'x' });
  await sendTestMail(mailpit.smtpPort, { raw: 'From: app@example.test\r\nTo: undisclosed-recipients:;\r\nSubject: =?UTF-8?Q?Votre_code?=\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n<a href=3D"https://app.example/m?t=3Dabc&amp;u=3D1">Sign in</a>\r\n', envelope: { from: 'app@example.test', to: ['ALICE@example.test'] } });
  const result = await wait;
  if (result.kind !== 'found') throw new Error(`not found: ${JSON.stringify(result)}`);
  expect(result.message).toMatchObject({ recipients: ['alice@example.test'], subject: 'Votre code', from: 'app@example.test' });
  expect(result.message.html).toContain('href="https://app.example/m?t=abc&amp;u=1"');
  expect(mailpit.requests.filter((path) => path.endsWith('/raw'))).toHaveLength(1);
});

test('order is Mailpit\'s arrival time, not the Date header: of two already there when the wait starts, the later one wins', async () => {
  const after = await reader.cursor();
  await sendTestMail(mailpit.smtpPort, { raw: 'From: app@example.test\r\nDate: Sat, 1 Jan 2050 00:00:00 +0000\r\nSubject: first, dated later\r\n\r\n1\r\n', envelope: { from: 'app@example.test', to: ['alice@example.test'] } });
  await sendTestMail(mailpit.smtpPort, { raw: 'From: app@example.test\r\nDate: Mon, 1 Jan 2001 00:00:00 +0000\r\nSubject: second, dated earlier\r\n\r\n2\r\n', envelope: { from: 'app@example.test', to: ['alice@example.test'] } });
  const result = await reader.waitFor({ to: 'alice@example.test', after, timeoutMs: 5_000 });
  expect(result.kind === 'found' && result.message.subject).toBe('second, dated earlier');
});

test('a timeout lists what else arrived; an inbox cleared during the wait still finds the new mail', async () => {
  await sendTestMail(mailpit.smtpPort, { to: 'x@example.test', subject: 'before', text: 'x' });
  const after = await reader.cursor();
  await sendTestMail(mailpit.smtpPort, { to: 'bob@example.test', subject: 'for bob', text: 'body-secret' });
  const timeout = await reader.waitFor({ to: 'alice@example.test', after, timeoutMs: 500 });
  expect(timeout).toMatchObject({ kind: 'timeout', others: [{ recipients: ['bob@example.test'], subject: 'for bob' }], otherCount: 1 });
  expect(JSON.stringify(timeout)).not.toContain('body-secret');
  mailpit.clear();
  const wait = reader.waitFor({ to: 'alice@example.test', after, timeoutMs: 5_000 });
  await sendTestMail(mailpit.smtpPort, { to: 'alice@example.test', subject: 'after the clear', text: 'x' });
  expect(await wait).toMatchObject({ kind: 'found', message: { subject: 'after the clear' } });
});

test('an unreachable Mailpit, or a URL that is not one, is a clear error naming the URL', async () => {
  const port = await freePort();
  const error = await openMailReader({ kind: 'mailpit', url: `http://127.0.0.1:${port}` }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MultiAuthError);
  expect((error as MultiAuthError).code).toBe('MAIL_UNAVAILABLE');
  expect((error as MultiAuthError).message).toBe(`Mailpit at http://127.0.0.1:${port} cannot be read: GET http://127.0.0.1:${port}/api/v1/messages?start=…&limit=… failed (ECONNREFUSED)`);
  const other = await startHttpServer((_request, response) => response.end('<html>a shop</html>'));
  try {
    const notMailpit = (await openMailReader({ kind: 'mailpit', url: other.url }).catch((e: unknown) => e)) as MultiAuthError;
    expect(notMailpit.message).toMatch(/^Mailpit at http:\/\/127\.0\.0\.1:\d+ cannot be read: GET .*\/api\/v1\/messages\?start=…&limit=… answered something that is not JSON$/);
    expect(notMailpit.hint).toContain('mail');
  } finally {
    await other.close();
  }
});
