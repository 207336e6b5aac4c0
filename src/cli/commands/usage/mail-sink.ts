import { configOption, type CommandUsage } from '../../command.js';

/** What `multiauth help` shows of `mail-sink` and what its command line is parsed against; `../mail-sink.ts` runs it. */
export const mailSinkUsage: CommandUsage = {
  name: 'mail-sink',
  summary: "run the mail sink of the config's mail.smtp (SMTP in, the readers' API out) until stopped",
  arguments: '[-c FILE]',
  description:
    'Receives the mail of the application under test on mail.smtp\'s host:port (127.0.0.1 unless\n' +
    'told otherwise) and serves it to the tests on 127.0.0.1:api_port (default port + 1), for as\n' +
    'long as it runs; mail is kept in memory only. In playwright.config.ts: webServer: mailSink().\n' +
    'Stops on SIGINT (Ctrl-C) or SIGTERM (docs/email.md).',
  options: { config: configOption },
  positionals: { min: 0, max: 0 },
};
