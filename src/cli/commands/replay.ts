import { resolve } from 'node:path';
import type { Plan, PlanUser } from '../../compile/index.js';
import type { Redactor } from '../../core/redactor.js';
import { SAFE_METHODS } from '../../config/index.js';
import { withContext } from '../../core/error-context.js';
import { MultiAuthError } from '../../core/errors.js';
import { didYouMean } from '../../core/suggest.js';
import { readHarFile, toExchanges } from '../../draft/index.js';
import {
  authenticate, closeDispatchers, loadAccess, loadFindPlanUser, loadReplaySend, sessionSecrets, type AuthenticateOptions, type ReplayRow, type ReplayTarget, type Session,
} from '../../runtime/index.js';
import { planOrigins } from '../../sessions/index.js';
import { usableConfig } from '../check-config.js';
import type { Command } from '../command.js';
import { ExitCode } from '../io.js';
import { jsonText } from '../json-output.js';
import { harReplayRequests } from '../access/replay-har.js';
import { replayScope } from '../access/replay-scope.js';
import { browserFor } from './browser-users.js';
import { replayUsage } from './usage/replay.js';

/** Requests of one recording replayed at most: the replay's bound per run (a recording is one run). */
const MAX_REPLAYED = 500;

/**
 * `multiauth replay --har FILE --user OWNER --as USER[,USER...] [--json] [--unsafe]`: the access
 * replay (docs/access.md "Access replay") of a session recorded by hand. Signs OWNER and each
 * user in once, sends every request of the recording that carried OWNER's credentials again as
 * OWNER, then as each user and as `anonymous`, and prints the table (the run's Markdown) or its
 * JSON. Exit 0 without findings, 1 with findings or a failed sign-in, 2 a config or usage mistake.
 *
 * @example
 * await main(['replay', '--har', 'alice.har', '--user', 'alice', '--as', 'bob'], io); // exit 1: 'bob gets alice's answer to GET /api/orders/1001 ...'
 */
export const replayCommand: Command = {
  ...replayUsage,
  async run({ values, io }) {
    const { har, owner, as } = replayArguments(values);
    const opened = await usableConfig(values.config as string | undefined, io);
    const { plan, redactor } = opened;
    const names = plan.users.map((user) => user.name);
    const findPlanUser = await loadFindPlanUser();
    const ownerUser = findPlanUser(plan, owner);
    for (const user of as) {
      if (user !== 'anonymous' && !names.includes(user)) {
        throw new MultiAuthError('USER_UNKNOWN', `--as: no user named "${user}"${didYouMean(user, names)}`, {
          details: [`users: ${names.join(', ')}, anonymous`],
          hint: 'Name users of the config (multiauth users lists them), separated by commas.',
        });
      }
    }
    const exchanges = toExchanges(readHarFile(resolve(io.cwd, har), har));

    const { replayRequest, replayingUsers } = await loadReplaySend();
    const replaying = replayingUsers(owner, as);
    const signingIn = [ownerUser, ...plan.users.filter((user) => replaying.includes(user.name))];
    const browser = await browserFor(plan, signingIn, values['browser-path'] as string | undefined, io);
    const sessions = new Map<string, Session | MultiAuthError>();
    const rows: ReplayRow[] = [];
    let skipped;
    try {
      for (const user of signingIn) sessions.set(user.name, await signIn(user, { plan, redactor, browser: browser?.browser }));
      const ownerSession = sessions.get(owner);
      if (ownerSession instanceof MultiAuthError) throw ownerSession;
      const access = await loadAccess();
      const selection = new access.ReplaySelection<ReplayTarget & { resourceType: string }>({
        owner, origins: replayScope(plan, planOrigins(plan)), unsafe: values.unsafe === true, safeMethods: SAFE_METHODS,
        claims: access.memoryClaims(), bounds: { perTest: MAX_REPLAYED, perRun: MAX_REPLAYED },
      });
      const { targets, anonymous } = harReplayRequests(exchanges, {
        isSecret: (value) => redactor.redact(value) !== value,
        headerNames: new Set(Object.keys(ownerSession?.headers ?? {}).map((name) => name.toLowerCase())),
        queryNames: new Set(Object.keys(ownerSession?.query ?? {})),
      }, selection, access.withoutCredentials);
      skipped = selection.skipped();
      // Said on stderr, not in the report (whose shape is the run's): a HAR of someone else's session replays nothing.
      if (anonymous) io.stderr.write(`${anonymous} recorded request${anonymous === 1 ? '' : 's'} carried no credentials of ${owner}'s: not replayed\n`);
      // The same rate bound as in Playwright: a recording replayed as several users is many requests at once.
      const pacer = new access.ReplayPacer(access.DEFAULT_REPLAY_RATE);
      const context = {
        plan, owner, users: replaying, mask: (text: string) => redactor.redact(text),
        pace: (origin: string) => pacer.turn(origin),
        session: async (user: string) => {
          const session = sessions.get(user);
          if (session === undefined || session instanceof MultiAuthError) throw new Error(`${user} is not signed in`);
          return session;
        },
      };
      for (const target of targets) rows.push((await replayRequest(target, context)).row);
    } finally {
      await closeDispatchers();
      await browser?.close();
    }
    const { replayMarkdown, replayReport } = await loadAccess();
    const report = replayReport(rows, [skipped]);
    io.stdout.write(values.json ? jsonText(redactor.redactJson(report)) : redactor.redact(replayMarkdown(report)));
    const failures = [...sessions].filter((entry): entry is [string, MultiAuthError] => entry[1] instanceof MultiAuthError);
    for (const [user, failure] of failures) io.stderr.write(`\n${user}:\n${redactor.redact(failure.render())}\n`);
    return report.findings === 0 && failures.length === 0 ? ExitCode.OK : ExitCode.AUTH_FAILED;
  },
};

/** The command line's three required options, checked. */
function replayArguments(values: Record<string, string | boolean | undefined>): { har: string; owner: string; as: string[] } {
  const missing = ['har', 'user', 'as'].filter((name) => typeof values[name] !== 'string' || values[name] === '');
  if (missing.length) {
    throw new MultiAuthError('CLI_USAGE', `replay needs ${missing.map((name) => `--${name}`).join(', ')}`, {
      hint: 'multiauth replay --har alice.har --user alice --as bob,carol',
    });
  }
  const as = (values.as as string).split(',').map((name) => name.trim()).filter((name) => name !== '');
  if (as.length === 0) throw new MultiAuthError('CLI_USAGE', '--as names no user', { hint: 'multiauth replay --har alice.har --user alice --as bob,carol' });
  return { har: values.har as string, owner: values.user as string, as };
}

/** A user's session, its secrets known to the redactor; a failure as the error to report (masked). */
async function signIn(user: PlanUser, options: { plan: Plan; redactor: Redactor; browser: AuthenticateOptions['browser'] }): Promise<Session | MultiAuthError> {
  try {
    const session = await authenticate(options.plan, user.name, { redactor: options.redactor, ...(options.browser ? { browser: options.browser } : {}) });
    options.redactor.add(...sessionSecrets(session));
    return session;
  } catch (error) {
    const shown = withContext(error, { context: {} }, options.redactor);
    return shown instanceof MultiAuthError ? shown : new MultiAuthError('INTERNAL', `internal error: ${options.redactor.redact(String(error)).slice(0, 200)}`, { cause: error });
  }
}
