import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * The id of this run as every process of it sees it: `MULTIAUTH_RUN_ID` when set (a CI system that
 * pins it); else, in a Playwright worker, the id its runner shared ({@link shareRunId}); else, in
 * any other process (the runner, a `multiauth` command), a random id made once per process. A
 * worker whose runner shared none (the runner never loaded this package) falls back to its
 * runner's pid and start time, which differ from run to run even where pids repeat (containers).
 *
 * @example
 * runId(process.env); // 'b7f3c1a09e2d4f66a1c0'
 */
export function runId(env: Record<string, string | undefined>): string {
  if (env.MULTIAUTH_RUN_ID) return env.MULTIAUTH_RUN_ID;
  if (env.TEST_WORKER_INDEX === undefined) return (ownRunId ??= randomBytes(10).toString('hex'));
  const shared = env[RUNNER_VARIABLE];
  const prefix = `${process.ppid}:`;
  if (shared?.startsWith(prefix) && shared.length > prefix.length) return shared.slice(prefix.length);
  return processStart(process.ppid);
}

/** The variable a runner shares its run id with its workers in: `<runner pid>:<run id>`. */
const RUNNER_VARIABLE = 'MULTIAUTH_RUNNER_RUN';

let ownRunId: string | undefined;

/**
 * Shares this process's run id with the workers it will start, through `env` (their environment):
 * called when the Playwright runner loads this package (its config or its test files), before any
 * worker starts. A worker, or a pinned `MULTIAUTH_RUN_ID`, leaves `env` alone. The runner's pid
 * goes with the id, so a Playwright run started inside a worker (nested) does not take its
 * parent's run for its own.
 *
 * @example
 * shareRunId(process.env); // the runner: workers forked from now on see its run id
 */
export function shareRunId(env: Record<string, string | undefined>): void {
  if (env.MULTIAUTH_RUN_ID || env.TEST_WORKER_INDEX !== undefined) return;
  env[RUNNER_VARIABLE] = `${process.pid}:${runId(env)}`;
}

/** `pid@start` where /proc says when the process started (Linux), else the pid alone. */
function processStart(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (start time in clock ticks since boot) counts after the command name's last ')'.
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    if (start && /^\d{1,20}$/.test(start)) return `${pid}@${start}@${boot.slice(0, 36)}`;
  } catch {
    // No /proc (macOS, Windows): pids do not repeat there as in a container.
  }
  return String(pid);
}
