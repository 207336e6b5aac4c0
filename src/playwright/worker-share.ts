import { cpus } from 'node:os';
import { matrixUserOf } from './sign-in-report.js';

/**
 * Set by the runner for its workers: what {@link shareWorkers} assumed of the run, so that a worker,
 * which knows the run's real number of workers, can say when the assumption kept workers idle.
 */
export const WORKER_SHARE_ENV = 'MULTIAUTH_WORKER_SHARE';

/** How the run's workers are shared among the users' projects of `authProjects`. */
export interface WorkerShare {
  /** The run's workers as the runner could tell them when the config loaded. */
  assumed: number;
  /** Where `assumed` came from. */
  from: 'command line' | 'option' | "Playwright's default";
  users: number;
  /** Each user's project's `workers` (Playwright's per-project limit), or undefined: no limit. */
  perUser: number | undefined;
}

/**
 * The run's number of workers as the command line gives it (`--workers N`, `--workers=N`, `-j N`,
 * `-jN`, a percentage of the logical CPUs as Playwright reads one; `--debug` runs one), else
 * undefined.
 *
 * @example
 * workersFromArgv(['node', 'playwright', 'test', '-j', '4']); // 4
 */
export function workersFromArgv(argv: readonly string[]): number | undefined {
  let found: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--debug') return 1;
    let raw: string | undefined;
    if (arg === '--workers' || arg === '-j') raw = argv[i + 1];
    else if (arg.startsWith('--workers=')) raw = arg.slice('--workers='.length);
    else if (/^-j\d/.test(arg)) raw = arg.slice(2);
    const n = raw === undefined ? undefined : resolveWorkers(raw);
    if (n !== undefined) found = n;
  }
  return found;
}

/** A `workers` value as Playwright resolves it: a count, or a percentage of the logical CPUs. */
export function resolveWorkers(value: number | string): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value > 0 ? value : undefined;
  const percent = /^(\d{1,3})%$/.exec(value);
  if (percent) return Math.max(1, Math.floor(cpus().length * (Number(percent[1]) / 100)));
  return /^\d{1,6}$/.test(value) && Number(value) > 0 ? Number(value) : undefined;
}

/**
 * How `authProjects` shares the run's workers among the users' projects. Playwright restarts a
 * worker whenever it moves to another project; left alone, every worker takes a share of every
 * user's tests, so each worker of the run starts once per user (a process, a browser, the user's
 * session) and the users sign in one after another, each while all workers wait. When the users
 * divide evenly among the workers, each user's project is limited to its share (`workers / users`
 * workers, at least one): each worker then runs whole users and two users sign in side by side.
 * When they do not divide evenly, the last users would run on fewer workers than the run has, so
 * nothing is limited.
 *
 * The run's workers come from the command line, else from `given` (the config's own `workers`,
 * which Playwright does not show while the config loads), else Playwright's default (half the
 * logical CPUs).
 *
 * @example
 * shareWorkers(8, { argv: ['-j', '2'] }); // { assumed: 2, from: 'command line', users: 8, perUser: 1 }
 */
export function shareWorkers(users: number, options: { argv: readonly string[]; given?: number | string }): WorkerShare {
  const fromArgv = workersFromArgv(options.argv);
  const fromOption = options.given === undefined ? undefined : resolveWorkers(options.given);
  const assumed = fromArgv ?? fromOption ?? Math.max(1, Math.floor(cpus().length / 2));
  const from: WorkerShare['from'] = fromArgv !== undefined ? 'command line' : fromOption !== undefined ? 'option' : "Playwright's default";
  let perUser: number | undefined;
  if (users > 1 && assumed > 1) {
    if (users % assumed === 0) perUser = 1;
    else if (assumed % users === 0) perUser = assumed / users;
  }
  return { assumed, from, users, perUser };
}

/**
 * The warning a worker gives when the limit `authProjects` set keeps some of the run's `workers`
 * idle (the config sets `workers` and `authProjects` was not told), else undefined.
 *
 * @example
 * shareWarning({ assumed: 1, from: "Playwright's default", users: 2, perUser: 1 }, 4);
 */
export function shareWarning(share: WorkerShare, workers: number): string | undefined {
  if (share.perUser === undefined || share.assumed === workers || share.perUser * share.users >= workers) return undefined;
  return (
    `authProjects limited each of the ${share.users} users' projects to ${share.perUser} worker${share.perUser === 1 ? '' : 's'}, ` +
    `assuming ${share.assumed} worker${share.assumed === 1 ? '' : 's'} (${share.from}), but this run has ${workers}: ` +
    `at most ${share.perUser * share.users} run at once. Tell authProjects the config's workers: ` +
    `authProjects(project, { workers: ${workers} }).\n`
  );
}

/** The share the runner left for its workers in `env`, or undefined (none, or not this package's shape). */
export function shareFromEnv(env: Record<string, string | undefined>): WorkerShare | undefined {
  const raw = env[WORKER_SHARE_ENV];
  if (!raw || raw.length > 500) return undefined;
  try {
    const value = JSON.parse(raw) as Partial<WorkerShare>;
    const { assumed, from, users, perUser } = value;
    if (typeof assumed !== 'number' || typeof users !== 'number' || (perUser !== undefined && typeof perUser !== 'number')) return undefined;
    if (from !== 'command line' && from !== 'option' && from !== "Playwright's default") return undefined;
    return { assumed, from, users, perUser };
  } catch {
    return undefined;
  }
}

/**
 * In a worker of a project of `authProjects`: warns once per run (`firstInRun`) when the share the
 * runner assumed keeps some of the run's `workers` idle ({@link shareWarning}).
 *
 * @example
 * warnWorkerShare(workerInfo.project, workerInfo.config.workers, process.env, (key) => auth.firstInRun(key));
 */
export function warnWorkerShare(project: { metadata?: unknown }, workers: number, env: Record<string, string | undefined>, firstInRun: (key: string) => boolean): void {
  const share = shareFromEnv(env);
  if (!share || matrixUserOf(project.metadata) === undefined) return;
  const warning = shareWarning(share, workers);
  if (!warning) return;
  let first = false;
  try {
    first = firstInRun(`worker-share\0${warning}`);
  } catch {
    // No config to keep the run's marks beside: its tests say why.
  }
  if (first) process.stderr.write(`playwright-multiauth: warning: ${warning}`);
}
