import { authenticate, closeDispatchers, findPlanUser, launchBrowserForCli } from '../../runtime/index.js';
import { withContext } from '../../core/error-context.js';
import type { Plan, PlanUser } from '../../compile/index.js';
import { usableConfig } from '../check-config.js';
import { configOption, type Command } from '../command.js';
import { ExitCode } from '../io.js';
import { sessionJson, sessionText } from './login-output.js';

/**
 * `multiauth login USER [-c FILE] [--json] [--reveal]`: signs USER in as the fixtures would and
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
  arguments: 'USER [-c FILE] [--json] [--reveal] [--browser-path P]',
  description:
    'Signs USER in exactly as the Playwright fixtures do, and prints what every authenticated\n' +
    'request will carry: headers, cookies, query parameters, body fields, and when it expires.\n' +
    'Secret values are masked unless --reveal. --json prints\n' +
    '{"user","headers","cookies","query","body","expiresAt"} for scripts.\n' +
    'Exit 0 signed in, 1 sign-in failed, 2 invalid config or unknown user.',
  options: {
    config: configOption,
    json: { type: 'boolean', description: 'print the session as JSON' },
    reveal: { type: 'boolean', description: 'print secret values instead of ********' },
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
    // playwright-core loads only when this user signs in through a browser (the runtime's door loads it lazily).
    const browser = usesBrowser(plan, user)
      ? await launchBrowserForCli({ browserPath: values['browser-path'] as string | undefined, env: io.env, proxy: plan.proxy })
      : undefined;
    try {
      session = await authenticate(plan, user.name, { redactor, browser: browser?.browser });
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

/** Whether signing the user in (or refreshing) runs a browser step: only then is one launched. */
function usesBrowser(plan: Plan, user: PlanUser): boolean {
  const names = [user.procedure, user.refresh?.procedure].filter((n): n is string => n !== undefined);
  return names.some((name) => plan.procedures[name]?.operations.some((op) => op.tech === 'browser'));
}
