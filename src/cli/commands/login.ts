import { authenticate, checkBrowserPath, closeDispatchers, loadFindPlanUser, sessionSecrets, type SignInEvent } from '../../runtime/index.js';
import { withContext } from '../../core/error-context.js';
import { usableConfig } from '../check-config.js';
import { configOption, type Command } from '../command.js';
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
  name: 'login',
  summary: 'sign a user in and print the session (secrets masked unless --reveal)',
  arguments: '(USER | --all --out DIR) [-c FILE] [--json] [--reveal] [--verbose] [--browser-path P]',
  description:
    'Signs USER in exactly as the Playwright fixtures do, and prints what every authenticated\n' +
    'request will carry: headers, cookies, query parameters, body fields, and when it expires.\n' +
    'Secret values are masked unless --reveal. --json prints\n' +
    '{"user","headers","cookies","query","body","expiresAt"} for scripts (docs/cli.md).\n' +
    '--verbose prints each step on stderr as it runs: requests without query values,\n' +
    'statuses, times, the names of what was extracted, the injections, the session check.\n' +
    '--all --out DIR signs every user in (a few at a time) and writes their sessions, sealed with\n' +
    'MULTIAUTH_CACHE_KEY, into DIR: a bundle shards use as MULTIAUTH_CACHE_DIR (docs/caching.md).\n' +
    'With --json a failure prints {"ok": false, "error"} on stdout.\n' +
    'Exit 0 signed in, 1 sign-in failed, 2 invalid config or unknown user.',
  options: {
    config: configOption,
    json: { type: 'boolean', description: 'print the session as JSON' },
    reveal: { type: 'boolean', description: 'print secret values instead of ********' },
    verbose: { type: 'boolean', short: 'v', description: 'print each step of the sign-in on stderr as it runs (secrets masked)' },
    all: { type: 'boolean', description: 'every user of the config (with --out)' },
    out: { type: 'string', valueName: 'DIR', description: 'write the sessions, sealed, into DIR: a bundle for sharded runs' },
    parallel: { type: 'string', valueName: 'N', description: 'with --all: sign-ins at once (default 4)' },
    'browser-path': { type: 'string', description: 'browser for browser sign-ins (default MULTIAUTH_BROWSER_PATH, then Playwright\'s)' },
  },
  positionals: { min: 0, max: 1 },
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
