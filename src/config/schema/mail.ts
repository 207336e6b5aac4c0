import { z } from 'zod';

/** A TCP port. */
const Port = z.int().min(1).max(65535);

/** An http(s) URL of a mail catcher's web interface and API. */
const CatcherUrl = z.string().min(1).max(2048).refine((url) => /^https?:\/\/[^\s/?#]+/i.test(url), { message: 'expected an http(s) URL such as http://127.0.0.1:8025' });

/**
 * `mail.smtp`: a sink the package runs (`multiauth mail-sink`; in Playwright a `webServer` entry
 * from `mailSink()`), which the application under test sends its mail to.
 */
export const SmtpSink = z.strictObject({
  host: z.string().min(1).optional().describe('Where the sink listens for SMTP; default 127.0.0.1 (loopback: only this machine can send to it).'),
  port: Port.describe('The SMTP port the application under test sends its mail to (2525).'),
  api_port: Port.optional().describe('The loopback port where workers and the CLI read the sink\'s mail; default port + 1.'),
});
export type SmtpSink = z.infer<typeof SmtpSink>;

/**
 * Where `tech: email` steps read mail (issue 37): exactly one of a sink the package runs
 * (`smtp`), or a mail catcher the team already runs, read through its API (`mailpit`, `maildev`).
 * One object with three optional keys, not a union: "give one of them" is a clearer error than
 * what a union says about the branch it guessed.
 */
export const MailSetting = z
  .strictObject({
    smtp: SmtpSink.optional().describe('A mail sink multiauth runs: {port, host?, api_port?}; point the application\'s SMTP settings at host:port.'),
    mailpit: CatcherUrl.optional().describe('A running Mailpit, read through its API: its web URL (http://127.0.0.1:8025).'),
    maildev: CatcherUrl.optional().describe('A running maildev, read through its API: its web URL (http://127.0.0.1:1080).'),
  })
  .refine((setting) => [setting.smtp, setting.mailpit, setting.maildev].filter((source) => source !== undefined).length === 1, {
    message: 'give exactly one of smtp, mailpit or maildev',
  });
export type MailSetting = z.infer<typeof MailSetting>;
