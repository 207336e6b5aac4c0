/**
 * runtime/mail: where `tech: email` reads mail. The front door of the room: {@link openMailReader}
 * opens a {@link MailReader} of the plan's mail source; the sink itself is started by
 * `multiauth mail-sink` (and in-process by the CLI's commands).
 */
import { MultiAuthError } from '../../core/errors.js';
import { maildevReader } from './maildev.js';
import { mailpitReader } from './mailpit.js';
import type { MailReader } from './reader.js';
import { startMailSink, type MailSink } from './sink.js';
import { probeSink, sinkReader } from './sink-reader.js';
import type { MailSource } from './source.js';

export type { MailCursor, MailMessage, MailQuery, MailReader, MailSummary, MailWaitResult } from './reader.js';
export type { MailSource } from './source.js';
export { startMailSink, type MailSink, type MailSinkOptions } from './sink.js';
export { MAIL_LIMITS } from './limits.js';

/** Options of {@link openMailReader}. */
export interface OpenMailReaderOptions {
  /**
   * For `smtp`: start a sink in this process when none listens (the CLI's commands), stopped by the
   * reader's `close()`. Playwright workers leave it unset: a sink of a worker would die with it, so
   * none listening is an error that says to add `webServer: mailSink()`.
   */
  startSinkIfNone?: boolean;
}

/**
 * A reader of the plan's mail source: the package's sink (over its loopback API; started here when
 * `startSinkIfNone` and none listens), Mailpit, or maildev (their APIs). Checks the source answers
 * before it returns; `close()` releases it.
 *
 * @throws MultiAuthError `MAIL_UNAVAILABLE` when no sink listens (and none may be started), another
 *   server holds the sink's API port, the sink's port is taken, or Mailpit/maildev cannot be read.
 * @example
 * const reader = await openMailReader({ kind: 'smtp', host: '127.0.0.1', port: 2525, apiPort: 2526 }, { startSinkIfNone: true });
 * const cursor = await reader.cursor();
 * // ... the request that makes the application send the mail
 * const result = await reader.waitFor({ to: 'alice@example.test', after: cursor, timeoutMs: 30_000 });
 * await reader.close();
 */
export async function openMailReader(source: MailSource, options: OpenMailReaderOptions = {}): Promise<MailReader> {
  if (source.kind === 'mailpit') return checked(mailpitReader(source.url));
  if (source.kind === 'maildev') return checked(maildevReader(source.url));
  const address = { host: source.host, port: source.port, apiPort: source.apiPort };
  const found = await probeSink(source.apiPort);
  if (found.kind === 'sink') return sinkReader(address);
  if (found.kind === 'other') {
    throw new MultiAuthError('MAIL_UNAVAILABLE', `no mail sink answers on 127.0.0.1:${source.apiPort} (mail.smtp.api_port): ${found.why}`, {
      hint: 'Another server holds that port: stop it, or set mail.smtp.api_port to a free port.',
    });
  }
  if (!options.startSinkIfNone) {
    throw new MultiAuthError('MAIL_UNAVAILABLE', `no mail sink is listening on 127.0.0.1:${source.apiPort} (the API of mail.smtp on ${source.host}:${source.port})`, {
      hint: "Add the sink to playwright.config.ts, so that one runs for the whole run: webServer: mailSink() (import { mailSink } from 'playwright-multiauth'), or webServer: [mailSink(), { ...the application's entry }]; or start it yourself: npx multiauth mail-sink.",
    });
  }
  let sink: MailSink;
  try {
    sink = await startMailSink(address);
  } catch (error) {
    // Another process (a parallel CLI command) may have started one in the meantime: read that one.
    if ((await probeSink(source.apiPort)).kind === 'sink') return sinkReader(address);
    throw error;
  }
  return sinkReader(address, () => sink.close());
}

/** A catcher's reader, once its API answered (an unreachable URL fails here, not in the middle of a sign-in). */
async function checked(reader: MailReader): Promise<MailReader> {
  await reader.cursor();
  return reader;
}
