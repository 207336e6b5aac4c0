import type { PlanEmailOperation } from '../../../compile/index.js';
import { MultiAuthError } from '../../../core/errors.js';
import { compileUserRegex, type UserRegex } from '../../../core/regex.js';
import type { Redactor } from '../../../core/redactor.js';
import { readHtml } from '../../http/html-text.js';
import { emptyObservation, type ObservedMail } from '../../http/observation.js';
import type { MailMessage, MailSummary } from '../../mail/reader.js';
import { expandTemplate } from '../../template/template.js';
import { mailLinks } from '../extract/mail-links.js';
import type { StepContext, StepResult } from './step.js';

/**
 * Runs a `tech: email` step: waits, through the run's mail reader, for the first mail to `to`
 * (matched exactly, any case, against the envelope) that arrived after the procedure started
 * (`ctx.mail.cursor`, taken before its first operation) and whose Subject and From match the
 * step's regexes; its extractions then read the mail ({@link observeMail}). The mail's text, HTML,
 * links and their query values are registered as secrets before anything can print them, and
 * nothing of it is kept: the session holds what the sign-in produced, not the mail.
 *
 * @throws MultiAuthError `EMAIL_TIMEOUT` when no such mail came within `wait_for_seconds`, naming
 *   the address, the mailbox, the wait, and the subjects and recipients of up to five other mails
 *   that came meanwhile (code-like words of a subject masked); never a body.
 * @example
 * const { observation } = await runEmailOperation(op, { ...ctx, mail: { reader, cursor } });
 * observation.mail?.links; // ['https://app.test/verify?token=...']
 */
export async function runEmailOperation(op: PlanEmailOperation, ctx: StepContext): Promise<StepResult> {
  const context = { user: ctx.where.user, procedure: ctx.where.procedure, step: ctx.where.step, stepKind: 'email' };
  const { mail } = ctx;
  if (!mail) {
    throw new MultiAuthError('INTERNAL', 'this sign-in waits for a mail, and no mailbox was opened for it', {
      context,
      hint: 'This is a bug of playwright-multiauth: the procedure\'s run should have opened the config\'s mail reader.',
    });
  }
  const to = expandTemplate(op.to, ctx.scope, { ...ctx.where, path: [...op.origin, 'parameters', 'to'] }, ctx.redactor).trim();
  const subject = op.subject === undefined ? undefined : compiled(op.subject);
  const from = op.from === undefined ? undefined : compiled(op.from);
  const timeoutMs = op.waitForSeconds * 1000;
  const result = await mail.reader.waitFor({
    to,
    after: mail.cursor,
    timeoutMs,
    ...(subject ? { subject: (text: string) => subject.test(text) } : {}),
    ...(from ? { from: (address: string) => from.test(address) } : {}),
  });
  if (result.kind === 'timeout') throw emailTimeout(op, to, mail.reader.description, result.waitedMs, result.others, result.otherCount ?? result.others.length, ctx.redactor, context);
  const observed = observeMail(result.message, ctx.redactor);
  const observation = { ...emptyObservation(), mail: observed };
  ctx.observed?.(observation);
  return { observation };
}

/**
 * What the extractions of an email step read from a mail: its text (the HTML as text when it has
 * no text part), its headers, its links ({@link mailLinks}). Every part that may carry a code or a
 * link is registered with `redactor` first: the text, the HTML, each link and those of its query
 * values that may be a code or token.
 *
 * @example
 * observeMail({ id: '1', arrivedAt: 0, recipients: ['a@x.test'], from: '', subject: 'Code', headers: [], text: 'Your code: 123456' }, redactor);
 * // { body: 'Your code: 123456', headers: [], links: [] }
 */
export function observeMail(message: MailMessage, redactor: Redactor): ObservedMail {
  const body = message.text ?? (message.html === undefined ? '' : readHtml(message.html).text);
  const links = mailLinks(message.html, message.text);
  redactor.add(body, message.text, message.html);
  for (const link of links) registerLink(link, redactor, 1);
  return { body, headers: message.headers.map(([name, value]) => [name, value]), links };
}

/**
 * A link and its query values are secrets; so are those of a link inside a query value, one level
 * down (a tracking redirect's `?u=https://app/verify?token=...`). A bare home-page link is not.
 */
function registerLink(link: string, redactor: Redactor, nested: number): void {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    redactor.add(link);
    return;
  }
  // A link to a site's home page (`https://app.test/`) carries nothing secret, and as a secret it
  // would mask the start of every URL of the application in every message.
  if (url.pathname === '/' && !url.search && !url.hash) return;
  redactor.add(link);
  for (const [name, value] of url.searchParams) {
    if (mayBeSecret(name, value)) redactor.add(value);
    if (nested > 0 && /^https?:\/\//i.test(value)) registerLink(value, redactor, nested - 1);
  }
}

/** Parameter names that carry codes and tokens whatever their value looks like. */
const SECRET_PARAMETER = /token|code|key|otp|pass|secret|auth|sig|hash|nonce|state|ticket|id/i;

/**
 * Whether a query value of a mail's link may be a code or token: one with a digit, a long one, or
 * any under a name like `token` or `code`. A short plain word under another name (`view=browser`,
 * `utm_source=email`, `list=security`) is not: as a secret it would mask that word in every later
 * message, the page's "open the link in the browser where you asked" among them.
 */
function mayBeSecret(name: string, value: string): boolean {
  return /\d/.test(value) || value.length >= 12 || SECRET_PARAMETER.test(name);
}

function compiled(pattern: string): UserRegex {
  // Checked when the config loaded; a pattern that fails here is a bug, named as one by the runner.
  return compileUserRegex(pattern);
}

/** Code-like words of a subject (a 4+ digit run, a long token): another mail's subject may carry its code. */
const CODE_LIKE = /\b(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{4,}\b/g;
/** The longest subject quoted. */
const MAX_SUBJECT = 120;

function emailTimeout(
  op: PlanEmailOperation,
  to: string,
  mailbox: string,
  waitedMs: number,
  others: MailSummary[],
  count: number,
  redactor: Redactor,
  context: { user: string | undefined; procedure: string | undefined; step: number; stepKind: string },
): MultiAuthError {
  const matching = [op.subject === undefined ? '' : ` with a subject matching /${op.subject}/`, op.from === undefined ? '' : ` from an address matching /${op.from}/`].join('');
  // The wait as configured: the reader's own measure runs a little over it.
  const seconds = Math.max(op.waitForSeconds, Math.floor(waitedMs / 1000));
  const details = [
    `mailbox: ${mailbox}`,
    count === 0
      ? 'no other mail arrived meanwhile'
      : `${count === 1 ? 'one other mail' : `${count} other mails`} arrived meanwhile${count > 5 ? ', the last five' : ''} (code-like words of subjects masked):`,
    ...others.slice(0, 5).map((other) => `  "${maskSubject(other.subject, redactor)}" to ${other.recipients.slice(0, 5).map((r) => redactor.redact(r)).join(', ') || '(no recipient)'}`),
  ];
  return new MultiAuthError('EMAIL_TIMEOUT', `no mail to ${to}${matching} arrived within ${seconds} s`, {
    context,
    path: op.origin,
    details,
    hint: 'Check that the application sends its mail to this mailbox (its SMTP host and port), that the address is the one it writes to, and that the subject and from regexes match; or raise wait_for_seconds.',
  });
}

function maskSubject(subject: string, redactor: Redactor): string {
  const cut = subject.length > MAX_SUBJECT ? `${subject.slice(0, MAX_SUBJECT - 1)}…` : subject;
  return redactor.redact(cut).replace(CODE_LIKE, '****').replace(/["\r\n]/g, ' ');
}
