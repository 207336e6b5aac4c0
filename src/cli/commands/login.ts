import { authenticate, closeDispatchers, findPlanUser, type SignInEvent } from '../../runtime/index.js';
import { withContext } from '../../core/error-context.js';
import { usableConfig } from '../check-config.js';
import { configOption, type Command } from '../command.js';
import { ExitCode } from '../io.js';
import { sessionJson, sessionText } from './login-output.js';
import { stepView } from './step-view.js';
import { browserFor } from './browser-users.js';

/**
 * `multiauth login USER [-c FILE] [--json] [--reveal] [--verbose]`: signs USER in as the fixtures would and
 * prints the session (what every authenticated request will carry), secrets masked unless
 * `--reveal`. Exit 0 signed in; 1 sign-in failed (the error on stderr, redacted); 2 invalid config
 * or unknown user.
 *
 * @example
 * await main(['login', 'alice', '-c', 'multiauth.yaml', '--json'], io); // {"user":"alice","headers":{...},...}
 */
export const loginCommand: Command = {
  name: 'login',
  summary: 'sign a user in and print the session (secrets masked unless --reveal)',
  arguments: 'USER [-c FILE] [--json] [--reveal] [--verbose] [--browser-path P]',
  description:
    'Signs USER in exactly as the Playwright fixtures do, and prints what every authenticated\n' +
    'request will carry: headers, cookies, query parameters, body fields, and when it expires.\n' +
    'Secret values are masked unless --reveal. --json prints\n' +
    '{"user","headers","cookies","query","body","expiresAt"} for scripts (docs/cli.md).\n' +
    '--verbose prints each step on stderr as it runs: requests without query values,\n' +
    'statuses, times, the names of what was extracted, the injections, the session check.\n' +
    'Exit 0 signed in, 1 sign-in failed, 2 invalid config or unknown user.',
  options: {
    config: configOption,
    json: { type: 'boolean', description: 'print the session as JSON' },
    reveal: { type: 'boolean', description: 'print secret values instead of ********' },
    verbose: { type: 'boolean', short: 'v', description: 'print each step of the sign-in on stderr as it runs (secrets masked)' },
    'browser-path': { type: 'string', description: 'browser for browser sign-ins (default MULTIAUTH_BROWSER_PATH, then Playwright\'s)' },
  },
  positionals: { min: 1, max: 1 },
  async run({ values, positionals, io }) {
    const userName = positionals[0] as string;
    const opened = await usableConfig(values.config as string | undefined, io);
    if (!opened) return ExitCode.INVALID;
    const { plan, redactor } = opened;

    const user = findPlanUser(plan, userName);
    let session;
    const browser = await browserFor(plan, [user], values['browser-path'] as string | undefined, io);
    try {
      // Masked even with --reveal: the step view names things, it never shows their values.
      const onEvent = values.verbose ? (event: SignInEvent) => io.stderr.write(stepView(event, (text) => redactor.redact(text))) : undefined;
      session = await authenticate(plan, user.name, { redactor, browser: browser?.browser, ...(onEvent ? { onEvent } : {}) });
    } catch (error) {
      throw withContext(error, { context: {} }, redactor);
    } finally {
      await closeDispatchers();
      await browser?.close();
    }
    const mask = values.reveal ? (text: string) => text : (text: string) => redactor.redact(text);
    io.stdout.write(
      values.json
        ? `${JSON.stringify(sessionJson(session, mask), null, 2)}\n`
        : sessionText(session, { procedure: user.procedure, now: Date.now(), mask }),
    );
    return ExitCode.OK;
  },
};
