import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, type CliRun } from '../cli/run-cli.js';

/**
 * Runs the built CLI (`node bin/multiauth.js ...args`) in `cwd` WITHOUT blocking this process, so
 * a demo server started by the test keeps answering while the CLI signs in (`runCli` is
 * synchronous). Only PATH is passed on: no MULTIAUTH_* or proxy variable of the developer's shell.
 *
 * @example
 * const run = await runCliAsync(['login', 'alice', '--json'], dir);
 */
export function runCliAsync(args: string[], cwd: string): Promise<CliRun> {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) {
    throw new Error('dist/cli/main.js is missing: run `npm run build` first (npm test does).');
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'multiauth.js'), ...args], { cwd, env: { PATH: process.env.PATH ?? '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * The 1-based line and column where `needle` starts in `text` (its first occurrence).
 *
 * @example
 * positionOf('a: 1\nb: 2\n', 'b:'); // { line: 2, column: 1 }
 */
export function positionOf(text: string, needle: string): { line: number; column: number } {
  const at = text.indexOf(needle);
  if (at === -1) throw new Error(`${JSON.stringify(needle)} is not in the text`);
  const before = text.slice(0, at).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}
