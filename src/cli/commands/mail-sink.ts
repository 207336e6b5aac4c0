import { ConfigInvalidError } from '../../core/errors.js';
import { startMailSink, type MailSource } from '../../runtime/index.js';
import { displayPath, openCliConfig } from '../check-config.js';
import type { Command } from '../command.js';
import { mailSinkUsage } from './usage/mail-sink.js';
import { ExitCode } from '../io.js';

/**
 * `multiauth mail-sink [-c FILE]`: runs the package's mail sink of the config's `mail.smtp` until
 * SIGINT or SIGTERM: SMTP on `host:port`, the readers' API on 127.0.0.1:`api_port`. In Playwright it
 * is the `webServer` entry `mailSink()` returns. Prints one line once both listen. Exit 2 when the
 * config has no `mail.smtp`; exit 1 (`MAIL_UNAVAILABLE`) when a port is taken.
 *
 * @example
 * await main(['mail-sink', '-c', 'multiauth.yaml'], io);
 * // mail sink: SMTP on 127.0.0.1:2525, API on http://127.0.0.1:2526 (stop with Ctrl-C)
 */
export const mailSinkCommand: Command = {
  ...mailSinkUsage,
  async run({ values, io }) {
    const opened = await openCliConfig(values.config as string | undefined, io, { checks: false, deferMissingEnv: true });
    const mail = (opened.plan as { mail?: MailSource }).mail;
    if (mail?.kind !== 'smtp') {
      const location = mail ? opened.loaded.locate(['mail']) : undefined;
      throw new ConfigInvalidError(opened.file, [{
        severity: 'error',
        path: ['mail'],
        message: mail
          ? `mail reads ${mail.kind === 'mailpit' ? 'Mailpit' : 'maildev'}, not the package's sink: multiauth mail-sink runs only for mail.smtp`
          : 'multiauth mail-sink needs mail.smtp in the config, and it has no mail',
        ...(location ? { location } : {}),
        hint: 'Add the sink to the config: "mail: { smtp: { port: 2525 } }", and point the application\'s mail settings at 127.0.0.1:2525 (docs/email.md).',
      }]);
    }
    const sink = await startMailSink({ host: mail.host, port: mail.port, apiPort: mail.apiPort });
    io.stdout.write(`mail sink: SMTP on ${sink.host}:${sink.port}, API on ${sink.apiUrl} (config ${displayPath(opened.file, io.cwd)}; stop with Ctrl-C)\n`);
    await untilStopped();
    await sink.close();
    return ExitCode.OK;
  },
};

/** Resolves at the first SIGINT or SIGTERM (a webServer's stop, Ctrl-C), which then no longer ends the process. */
function untilStopped(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
