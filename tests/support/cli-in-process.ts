import { main, type CliIo } from '../../src/cli/main.js';
import { ROOT } from './root.js';

/** What one in-process run of `multiauth` did. */
export interface MainRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the `multiauth` command line in this process (the sources, no child: no Node start, no
 * build), its output collected: for tests of a command's behaviour; the child-process runs of
 * tests/support/cli.ts are for what only a real process shows (exit, signals, the bin). It runs in
 * the package root unless `cwd` says otherwise, as those do; `env` is all the command sees.
 *
 * @example
 * const run = await runMain(['replay', '--har', 'alice.har', '--user', 'alice', '--as', 'bob'], { cwd: dir, env: { DEMO_URL } });
 */
export async function runMain(args: string[], options: { cwd?: string; env?: Record<string, string | undefined> } = {}): Promise<MainRun> {
  const out = { stdout: '', stderr: '' };
  const io: CliIo = {
    stdout: { write: (text: string) => (out.stdout += text) },
    stderr: { write: (text: string) => (out.stderr += text) },
    env: options.env ?? {},
    cwd: options.cwd ?? ROOT,
  };
  const code = await main(args, io);
  return { code, ...out };
}
