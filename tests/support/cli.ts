import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runNodeChild } from './node-child.js';
import { ROOT } from './root.js';

const BIN = join(ROOT, 'bin', 'multiauth.js');

/** What one run of the `multiauth` command did. */
export interface CliRun {
  /** The exit code, or null when a signal ended it. */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** What one {@link runCliAsync} did: a {@link CliRun}, how it ended and how long it took. */
export interface TimedCliRun extends CliRun {
  /** `SIGKILL` when `timeoutMs` ran out, else null. */
  signal: NodeJS.Signals | null;
  elapsedMs: number;
}

/** Where and with what the command runs. */
export interface CliOptions {
  /** The folder it runs in; default the package root. */
  cwd?: string;
  /** Variables over its environment (PATH and HOME alone); `undefined` removes one. */
  env?: Record<string, string | undefined>;
  /**
   * Kill it after this many milliseconds (SIGKILL; SIGTERM for {@link runCli}). Default: 30 s for {@link runCli} (a blocked
   * worker cannot time out), none for {@link runCliAsync} (the test's own timeout applies).
   */
  timeoutMs?: number;
}

const BLOCKING_TIMEOUT_MS = 30_000;

/**
 * Runs `node bin/multiauth.js ...args` as users do, from the built package (`npm run build` first;
 * `npm test` does it), and waits for it WITHOUT blocking this process, so a server the test started
 * here keeps answering while the command signs in.
 *
 * The environment is PATH and HOME of this process plus `options.env`, nothing else: no
 * MULTIAUTH_*, proxy or Playwright variable of the developer's shell or of the runner reaches it.
 *
 * @example
 * const run = await runCliAsync(['login', 'alice', '--json'], { cwd: dir });
 * expect(run.code).toBe(0);
 */
export async function runCliAsync(args: string[], options: CliOptions = {}): Promise<TimedCliRun> {
  assertBuilt();
  const run = await runNodeChild([BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    env: cliEnvironment(options.env),
    timeoutMs: options.timeoutMs,
  });
  return { code: run.code, stdout: run.stdout, stderr: run.stderr, signal: run.signal, elapsedMs: run.elapsedMs };
}

/**
 * {@link runCliAsync}, blocking this process until the command ends: for commands that talk to
 * no server of the test (`validate`, `users`, `schema`, `--help`).
 *
 * @example
 * expect(runCli(['users'], { cwd: dir })).toEqual({ code: 0, stdout: 'viewer\nadmin\n', stderr: '' });
 */
export function runCli(args: string[], options: CliOptions = {}): CliRun {
  assertBuilt();
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    env: cliEnvironment(options.env),
    encoding: 'utf8',
    timeout: options.timeoutMs ?? BLOCKING_TIMEOUT_MS,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A Node stack frame: must never reach a user for a mistake of theirs. */
export const STACK_FRAME = /^\s+at .+\(.*:\d+:\d+\)$|^\s+at .+:\d+:\d+$/m;

function assertBuilt(): void {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.cjs'))) {
    throw new Error('dist/cli/main.cjs is missing: run `npm run build` first (npm test does).');
  }
}

function cliEnvironment(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...extra };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  return env;
}
