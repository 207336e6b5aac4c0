import { authenticate, checkBrowserPath, closeDispatchers, loadFindPlanUser, sessionSecrets, type SignInEvent } from '../../runtime/index.js';
import { withContext } from '../../core/error-context.js';
import { usableConfig } from '../check-config.js';
import type { Command } from '../command.js';
import { loginUsage } from './usage/login.js';
import { ExitCode } from '../io.js';
import { sessionJson, sessionText } from './login-output.js';
import { stepView } from './step-view.js';
import { browserFor } from './browser-users.js';
import { parallelOption } from './bounded.js';
import { writeBundle } from './login-bundle.js';
import { MultiAuthError } from '../../core/errors.js';

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
  ...loginUsage,
  async run({ values, positionals, io }) {
    const out = values.out as string | undefined;
    if (values.all ? positionals.length > 0 || out === undefined || values.json || values.reveal : positionals.length !== 1) {
      throw new MultiAuthError('CLI_USAGE', values.all ? '--all writes a bundle: give --out DIR, and no USER, --json or --reveal' : 'name one USER (or --all --out DIR)', {
        hint: 'multiauth login alice, or multiauth login --all --out auth-bundle',
      });
    }
    const parallel = parallelOption(values.parallel as string | undefined);
    await checkBrowserPath(values['browser-path'] as string | undefined);
    // Another user's unset ${NAME} does not stop this one signing in (a warning says so).
    const opened = await usableConfig(values.config as string | undefined, io, { deferMissingEnv: true });
    const { plan, redactor } = opened;
    const findPlanUser = await loadFindPlanUser();
    if (out !== undefined) {
      const users = values.all ? plan.users : [findPlanUser(plan, positionals[0] as string)];
      const failed = await writeBundle(opened, { users, out, parallel, io, ...(values['browser-path'] ? { browserPath: values['browser-path'] as string } : {}) });
      return failed ? ExitCode.AUTH_FAILED : ExitCode.OK;
    }
    const userName = positionals[0] as string;

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
    // Static credentials join the session after the sign-in (a Basic header of "user:password"):
    // every value it carries is a secret of what is printed.
    redactor.add(...sessionSecrets(session));
    const mask = values.reveal ? (text: string) => text : (text: string) => redactor.redact(text);
    io.stdout.write(
      values.json
        ? `${JSON.stringify(sessionJson(session, mask), null, 2)}\n`
        : sessionText(session, { procedure: user.procedure, now: Date.now(), mask }),
    );
    return ExitCode.OK;
  },
};
