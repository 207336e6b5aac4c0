import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** What one run of the CLI did. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built CLI (`node bin/multiauth.js ...args`) as users do, asynchronously: the servers
 * these tests sign in against run in the test's own process and must keep answering meanwhile.
 * Throws when `dist/` has no CLI (`npm run build` first).
 *
 * @example
 * const run = await multiauth(['login', 'alice', '-c', file]);
 */
export function multiauth(args: string[]): Promise<CliRun> {
  if (!existsSync(`${ROOT}dist/cli/main.js`)) throw new Error('dist/cli/main.js is missing: run `npm run build` first (npm test does)');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`${ROOT}bin/multiauth.js`, ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
