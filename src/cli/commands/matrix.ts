import { closeDispatchers, loadAccess, type ObservedMatrix } from '../../runtime/index.js';
import { DEFAULT_MATRIX_PARALLEL, runAccessMatrix, type OpenedConfig } from '../../sessions/index.js';
import { MultiAuthError } from '../../core/errors.js';
import { usableConfig } from '../check-config.js';
import type { Command } from '../command.js';
import { matrixUsage } from './usage/matrix.js';
import { ExitCode } from '../io.js';
import { jsonText } from '../json-output.js';
import { recordableConfig, recordExpectations } from '../access/record.js';
import { checkDraftOnlyOptions, draftCommandRun, usersToRecord } from '../access/matrix-options.js';
import { fromReplayRun } from '../access/from-replay.js';
import { browserFor } from './browser-users.js';
import { parallelOption } from './bounded.js';

/**
 * `multiauth matrix [-c FILE] [--json] [--parallel N] [--update]`: runs the config's access matrix
 * (docs/access.md): signs every user of `access.expect` in once, sends every request as every
 * user, and prints the table (a row per request, a column per user, each cell `allow 200`,
 * `deny 403`, `unexpected allow 200`...), then one line per unexpected cell. Exit 0 when every
 * cell is as expected, 1 when any is not (or a sign-in failed), 2 for an invalid config.
 * `--update` runs every user and records what it observed into `access.expect`; `--from-openapi
 * FILE` drafts `access.requests` instead of running anything (docs/access-tools.md).
 *
 * @example
 * await main(['matrix', '-c', 'multiauth.yaml'], io); // exit 1: 'editor was allowed to DELETE ...: expected deny — possible broken access control'
 */
export const matrixCommand: Command = {
  ...matrixUsage,
  async run({ values, io }) {
    checkDraftOnlyOptions(values);
    if (values['from-replay'] !== undefined) return fromReplayRun(values, io);
    if (values['from-openapi'] !== undefined) return draftCommandRun(values, io);
    const parallel = values.parallel === undefined ? DEFAULT_MATRIX_PARALLEL : parallelOption(values.parallel as string);
    const opened = await usableConfig(values.config as string | undefined, io);
    if (!opened) return ExitCode.INVALID;
    const { plan, redactor } = opened;
    if (!plan.access) {
      throw new MultiAuthError('CONFIG_INVALID', 'the config has no access matrix', { hint: 'Add an access block (requests and expect) to the config: see docs/access.md.' });
    }
    const failures = new Map<string, MultiAuthError>();
    if (values.update) recordableConfig(opened.file);
    const run = values.update ? usersToRecord(plan) : plan.access.users;
    const users = plan.users.filter((user) => run.includes(user.name));
    const browser = await browserFor(plan, users, values['browser-path'] as string | undefined, io);
    let observed: ObservedMatrix;
    try {
      observed = await runAccessMatrix(opened, {
        parallel,
        ...(browser ? { browser: browser.browser } : {}),
        ...(values.update ? { users: usersToRecord(plan) } : {}),
        onSignInFailure: (user, error) => failures.set(user, error),
      });
    } finally {
      await closeDispatchers();
      await browser?.close();
    }
    const { cellProblem, matrixText } = await loadAccess();
    const problems = matrixProblems(opened, observed, cellProblem);
    const ok = problems.length === 0 && failures.size === 0;
    if (values.json) {
      io.stdout.write(jsonText(redactor.redactJson({ ok, ...observed, problems })));
    } else {
      io.stdout.write(redactor.redact(matrixText(observed)));
      if (problems.length) io.stdout.write(redactor.redact(`\n${problems.map((problem) => `${problem}\n`).join('')}`));
    }
    for (const [user, failure] of failures) io.stderr.write(`\n${user}:\n${redactor.redact(failure.render())}\n`);
    if (values.update) {
      recordExpectations(opened.file, observed);
      io.stderr.write(`recorded the observed matrix into access.expect of ${opened.file}: review it before committing\n`);
      return failures.size === 0 ? ExitCode.OK : ExitCode.AUTH_FAILED;
    }
    return ok ? ExitCode.OK : ExitCode.AUTH_FAILED;
  },
};

/** One sentence per unexpected cell, request by request, in the table's order. */
function matrixProblems(opened: OpenedConfig, observed: ObservedMatrix, cellProblem: Awaited<ReturnType<typeof loadAccess>>['cellProblem']): string[] {
  const requests = opened.plan.access?.requests ?? [];
  return requests.flatMap((request) => observed.users.flatMap((user) => {
    const cell = observed.cells[user]?.[request.name];
    return cell?.unexpected ? [`${request.name}: ${cellProblem(user, request, cell)}`] : [];
  }));
}
