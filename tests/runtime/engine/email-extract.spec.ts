import { test, expect } from '@playwright/test';
import type { PlanExtraction } from '../../../src/compile/plan.js';
import { MultiAuthError } from '../../../src/core/errors.js';
import { MASK, Redactor } from '../../../src/core/redactor.js';
import { extract } from '../../../src/runtime/engine/extract/index.js';
import { linkMatches } from '../../../src/runtime/engine/extract/mail.js';
import { mailLinks } from '../../../src/runtime/engine/extract/mail-links.js';
import { observeMail } from '../../../src/runtime/engine/steps/email-step.js';
import { emptyObservation } from '../../../src/runtime/http/observation.js';
import type { MailMessage } from '../../../src/runtime/mail/reader.js';
import { thrown } from '../../support/errors.js';

const where = { user: 'alice', procedure: 'code-login', step: 1 };
const at = (name: string, location: PlanExtraction['location'], key = '', regex?: string): PlanExtraction => ({
  name, location, key, origin: ['procedures', 0, 'operations', 1, 'extractions', 0], ...(regex === undefined ? {} : { regex }),
});

function message(parts: Partial<MailMessage>): MailMessage {
  return { id: '1', arrivedAt: 0, recipients: ['alice@example.test'], from: 'no-reply@app.test', subject: 'Your sign-in code', headers: [['Subject', 'Your sign-in code'], ['X-Ref', 'R-42']], ...parts };
}

function read(mail: MailMessage, extraction: PlanExtraction, redactor = new Redactor()): string | undefined {
  return extract({ ...emptyObservation(), mail: observeMail(mail, redactor) }, extraction, where);
}

test.describe('extractions on a mail', () => {
  test('body: the text part; a code picked by its context, not as the first six digits', () => {
    const mail = message({ text: 'Order 123456 shipped.\nYour code: 924511\nRef 777777' });
    expect(read(mail, at('code', 'body', '', 'code: (\\d{6})'))).toBe('924511');
    expect(read(mail, at('all', 'body'))).toContain('Your code: 924511');
  });

  test('body: the HTML as text when the mail has no text part', () => {
    const mail = message({ html: '<html><head><style>p{}</style></head><body><p>Your code:&nbsp;<b>31 41 59</b></p><script>x=1</script></body></html>' });
    const text = read(mail, at('all', 'body'))!;
    expect(text).toContain('Your code:');
    expect(text).toContain('31 41 59');
    expect(text).not.toContain('<b>');
    expect(text).not.toContain('x=1');
  });

  test('header: any case, decoded as the reader gave it', () => {
    const mail = message({ text: 'x' });
    expect(read(mail, at('subject', 'header', 'subject', '(?i)sign-in (code)'))).toBe('code');
    expect(read(mail, at('ref', 'header', 'X-REF'))).toBe('R-42');
  });

  test('link: HTML part first, href entities decoded, the whole link; a glob of the path or the whole URL; query ignored unless the glob has one', () => {
    const mail = message({
      html: '<p><a href="https://app.test/unsubscribe?u=1">unsubscribe</a> <a class=btn href="https://app.test/auth/verify?token=t-1&amp;next=%2Fhome">Sign in</a></p>',
      text: 'Open https://app.test/auth/verify?token=t-1&next=%2Fhome. Or https://other.test/auth/verify?token=t-2',
    });
    expect(read(mail, at('link', 'link'))).toBe('https://app.test/unsubscribe?u=1');
    expect(read(mail, at('link', 'link', '/auth/verify'))).toBe('https://app.test/auth/verify?token=t-1&next=%2Fhome');
    expect(read(mail, at('link', 'link', 'https://other.test/**'))).toBe('https://other.test/auth/verify?token=t-2');
    expect(read(mail, at('link', 'link', '/auth/verify?token=t-2'))).toBe('https://other.test/auth/verify?token=t-2');
    expect(read(mail, at('token', 'query', 'token'))).toBe('t-1');
  });

  test('the links of a mail, each once: unquoted and single-quoted hrefs, <area>, a text URL without its full stop, no mailto', () => {
    expect(mailLinks(
      "<a href=https://a.test/1>x</a><A HREF = 'https://a.test/2?x=1&#38;y=2'>y</A><area shape=rect href=\"https://a.test/3\"><a href=\"mailto:x@a.test\">m</a><link href=\"https://a.test/style.css\">",
      'See https://a.test/1 and https://a.test/4.',
    )).toEqual(['https://a.test/1', 'https://a.test/2?x=1&y=2', 'https://a.test/3', 'https://a.test/4']);
  });

  test('hostile markup and text cost linear time: many tags without href, a long run of dots', () => {
    const started = performance.now();
    const links = mailLinks(`${'<a x '.repeat(200_000)}<a href="https://a.test/late">`, `https://a.test/${'.'.repeat(500_000)}x ${'https://b.test/. '.repeat(1000)}`);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(links.length).toBeLessThanOrEqual(200);
  });

  test('link globs: * within a segment, ** across, the query only when the glob has one', () => {
    expect(linkMatches('/auth/*', 'https://a.test/auth/verify?t=1')).toBe(true);
    expect(linkMatches('/auth/*', 'https://a.test/auth/verify/x')).toBe(false);
    expect(linkMatches('/auth/**', 'https://a.test/auth/verify/x')).toBe(true);
    expect(linkMatches('https://a.test/auth/**', 'https://b.test/auth/verify')).toBe(false);
    expect(linkMatches('/auth/verify?token=*', 'https://a.test/auth/verify?next=/')).toBe(false);
    expect(linkMatches('/auth/verify?token=*', 'https://a.test/auth/verify?token=abc')).toBe(true);
  });

  test('every part of the mail that may carry a code is a secret: text, HTML, links, their query values', () => {
    const redactor = new Redactor();
    observeMail(message({ text: 'Your code: 924511', html: '<a href="https://app.test/v?token=tok-secret-1">go</a>' }), redactor);
    const printed = redactor.redact('text Your code: 924511 link https://app.test/v?token=tok-secret-1 token tok-secret-1');
    expect(printed).not.toContain('924511');
    expect(printed).not.toContain('tok-secret-1');
    expect(printed).toContain(MASK);
  });

  test('an extraction that finds nothing names the extraction and quotes nothing of the mail', () => {
    const mail = message({ text: 'Your code: 924511 — see https://app.test/v?token=tok-secret-1', headers: [['Subject', 'Code 924511']] });
    for (const extraction of [at('code', 'body', '', 'pin: (\\d{4})'), at('link', 'link', '/nowhere/**'), at('t', 'query', 'missing'), at('h', 'header', 'X-None')]) {
      const error = thrown(() => read(mail, extraction));
      expect(error).toBeInstanceOf(MultiAuthError);
      expect(error.code).toBe('EXTRACTION_NOT_FOUND');
      const text = error.render();
      expect(text).toContain(`extraction "${extraction.name}" found nothing`);
      expect(text).toContain('in the mail');
      for (const piece of ['924511', 'tok-secret-1', 'app.test/v']) expect(text).not.toContain(piece);
    }
  });
});

test("a mail's links and their query values are masked; a bare home-page link is not, so the application's URLs stay readable", () => {
  const redactor = new Redactor();
  observeMail(message({ html: '<a href="http://127.0.0.1:4010/">Home</a> <a href="http://127.0.0.1:4010/email-code/verify?token=tok-9f3">Sign in</a>' }), redactor);
  expect(redactor.redact('POST http://127.0.0.1:4010/email-code/verify')).toBe('POST http://127.0.0.1:4010/email-code/verify');
  expect(redactor.redact('got tok-9f3')).toBe(`got ${MASK}`);
  expect(redactor.redact('http://127.0.0.1:4010/email-code/verify?token=tok-9f3')).not.toContain('tok-9f3');
});

test("a link's plain words (view=browser, utm_source=email) stay readable in later messages; its codes and tokens do not", () => {
  const redactor = new Redactor();
  const view = 'http://127.0.0.1:4010/magic-link/preferences?view=browser&list=security&utm_source=email';
  const verify = 'http://127.0.0.1:4010/magic-link/verify?token=abcdefabcdef&email=tina%40demo.test&ref=zq';
  const tracked = `http://localhost:4010/t/click?m=9f3a&u=${encodeURIComponent(verify)}`;
  observeMail(message({ html: `<a href="${view}">View in your browser</a> <a href="${tracked}">Sign in</a> <a href="http://127.0.0.1:4010/c?code=qwerty">c</a>` }), redactor);
  expect(redactor.redact('Open the link in the browser where you asked for it (security, email)')).toBe('Open the link in the browser where you asked for it (security, email)');
  for (const secret of ['abcdefabcdef', '9f3a', 'qwerty']) expect(redactor.redact(`got ${secret}`), secret).toBe(`got ${MASK}`);
  // `ref=zq` is a short plain word under another name: left as it is, like `view`.
  expect(redactor.redact('zq')).toBe('zq');
});
