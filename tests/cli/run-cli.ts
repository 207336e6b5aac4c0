import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin', 'multiauth.js');

/** What one run of the published CLI did. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node bin/multiauth.js ...args` as users do: the built package (`npm run build` first;
 * `npm test` does it), in `cwd`, with `env` added to the environment (`undefined` unsets a name).
 */
export function runCli(args: string[], options: { cwd?: string; env?: Record<string, string | undefined> } = {}): CliRun {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) {
    throw new Error('dist/cli/main.js is missing: run `npm run build` first (npm test does).');
  }
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    env,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const created: string[] = [];

/**
 * A new empty directory under the OS temp dir (not `test-results/`, which a concurrent Playwright
 * run may wipe); {@link removeTempDirs} deletes them.
 */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'multiauth-cli-'));
  created.push(dir);
  return dir;
}

/** Deletes every directory {@link tempDir} made. */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Writes `files` (relative path -> text) under `dir` (default: a new {@link tempDir}), creating folders. */
export function writeFiles(files: Record<string, string>, dir = tempDir()): string {
  for (const [name, text] of Object.entries(files)) {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return dir;
}

/** A Node stack frame: must never reach a user for a mistake of theirs. */
export const STACK_FRAME = /^\s+at .+\(.*:\d+:\d+\)$|^\s+at .+:\d+:\d+$/m;
