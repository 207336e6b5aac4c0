import type { ErrorData } from '../../core/error-data.js';
import type { MultiAuthError } from '../../core/errors.js';
import { authenticate, checkBrowserPath, closeDispatchers, loadFindPlanUser, type Session } from '../../runtime/index.js';
import { plural, usableConfig } from '../check-config.js';
import type { Command } from '../command.js';
import { checkUsage } from './usage/check.js';
import { ExitCode, exitCodeOf } from '../io.js';
import { jsonError, jsonText } from '../json-output.js';
import { browserFor } from './browser-users.js';
import { inOrderBounded, parallelOption, userFailure } from './bounded.js';
import { describeExpiry, describeHow } from './login-output.js';
import { runTotals, summaryLine, type RunEvent } from '../../sessions/index.js';


/** How one user's check went, as `--json` prints it. */
interface UserOutcome {
  user: string;
  ok: boolean;
  /** `signed in by procedure "login"`, `static credentials (no sign-in request)`; `not signed in` when it failed. */
  how: string;
  /** Whether a session check (`validation`) ran after the sign-in and passed. */
  checked: boolean;
  ms: number;
  /** Unix ms, or null: never expires. Absent when the sign-in failed. */
  expiresAt?: number | null;
  /** Why it failed, as every `--json` error is (`jsonError`). */
  error?: ErrorData;
}

/**
 * `multiauth check [-c FILE] [--json] [--parallel N] [USER...]`: signs every user in (or the
 * users named), a few at a time, each once, with its session check when it has one, and prints one
 * line per user in the config's order: how it signed in, how long it took, when the session
 * expires, or its error. The full errors follow on stderr, masked. A user that needs an unset
 * `${NAME}` fails; the others are still checked. Exit 0 when every user signed in, 1 when any
 * failed, 2 when a failure is the config's, for an invalid config, an unknown user or a
 * `--browser-path` that names no file. The command to run first against a new environment, and in
 * CI before the suite. Nothing is cached.
 *
 * @example
 * await main(['check', '-c', 'multiauth.yaml'], io); // 'ok    alice  signed in by procedure "login", checked  0.21 s  expires ...'
 */
export const checkCommand: Command = {
  ...checkUsage,
  async run({ values, positionals, io }) {
    const parallel = parallelOption(values.parallel as string | undefined);
    const browserPath = values['browser-path'] as string | undefined;
    await checkBrowserPath(browserPath);
    // An unset ${NAME} fails the users that need it, not the whole check.
    const opened = await usableConfig(values.config as string | undefined, io, { deferMissingEnv: true });
    const { plan, redactor } = opened;
    const findPlanUser = await loadFindPlanUser();
    const users = positionals.length ? [...new Set(positionals)].map((name) => findPlanUser(plan, name)) : plan.users;

    const browser = await browserFor(plan, users.filter((user) => !user.missingEnv?.length), browserPath, io);
    const width = Math.min(24, Math.max(...users.map((user) => user.name.length)));
    let results: Array<{ outcome: UserOutcome; failure?: MultiAuthError }>;
    try {
      results = await inOrderBounded(
        users,
        parallel,
        async (user) => {
          const started = performance.now();
          try {
            const session: Session = await authenticate(plan, user.name, { redactor, browser: browser?.browser });
            const how = describeHow(user.procedure, 'signed-in');
            return { outcome: { user: user.name, ok: true, how, checked: user.validation !== undefined, ms: performance.now() - started, expiresAt: session.expiresAt } };
          } catch (error) {
            const failure = userFailure(error, redactor);
            const outcome: UserOutcome = { user: user.name, ok: false, how: 'not signed in', checked: false, ms: performance.now() - started, error: jsonError(failure, redactor) };
            return { outcome, failure };
          }
        },
        // Lines come out in the config's order, each as soon as it and those before it are done.
        ({ outcome }) => {
          if (!values.json) io.stdout.write(redactor.redact(outcomeLine(outcome, width)));
        },
      );
    } finally {
      await closeDispatchers();
      await browser?.close();
    }

    const done = results.map(({ outcome }) => outcome);
    const failed = done.filter((outcome) => !outcome.ok).length;
    if (values.json) {
      io.stdout.write(jsonText(redactor.redactJson({ ok: failed === 0, users: done.map(rounded) })));
    } else {
      io.stdout.write(`${plural(done.length, 'user')}: ${done.length - failed} signed in${failed ? `, ${failed} failed` : ''}\n`);
      // The totals a Playwright run prints at its end, for the same sign-ins.
      io.stdout.write(`${summaryLine(runTotals(results.map(({ outcome, failure }) => asRunEvent(outcome, failure))))}\n`);
    }
    for (const { outcome, failure } of results) {
      if (failure) io.stderr.write(`\n${outcome.user}:\n${redactor.redact(failure.render())}\n`);
    }
    // A user the config cannot sign in (an unset variable) is the config's fault: exit 2, as `validate`.
    const codes = results.flatMap(({ failure }) => (failure ? [exitCodeOf(failure.code)] : []));
    return codes.length ? Math.max(...codes) : ExitCode.OK;
  },
};

/** A user's check as an event of the run's totals: nothing is cached, so each signed in or failed. */
function asRunEvent(outcome: UserOutcome, failure: MultiAuthError | undefined): RunEvent {
  return outcome.ok
    ? { kind: 'signed-in', user: outcome.user, worker: 'check', at: 0, ms: outcome.ms }
    : { kind: 'failed', user: outcome.user, worker: 'check', at: 0, ms: outcome.ms, ...(failure ? { code: failure.code } : {}) };
}

function outcomeLine(outcome: UserOutcome, width: number): string {
  const name = outcome.user.padEnd(width);
  const time = seconds(outcome.ms);
  if (!outcome.ok) return `FAIL  ${name}  ${outcome.error?.code}: ${firstLine(outcome.error?.message ?? '')}  (${time})\n`;
  const how = outcome.checked ? `${outcome.how}, checked` : outcome.how;
  return `ok    ${name}  ${how}  ${time}  expires ${describeExpiry(outcome.expiresAt ?? null, Date.now())}\n`;
}

function rounded(outcome: UserOutcome): UserOutcome {
  return { ...outcome, ms: Math.round(outcome.ms) };
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').slice(0, 200);
}
