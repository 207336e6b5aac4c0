import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const created: string[] = [];

/**
 * A new empty directory under the OS temp dir (not `test-results/`, which a concurrent Playwright
 * run may wipe); {@link removeTempDirs} deletes them.
 *
 * @example
 * const dir = tempDir();
 */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'multiauth-cli-'));
  created.push(dir);
  return dir;
}

/**
 * Deletes every directory {@link tempDir} made.
 *
 * @example
 * test.afterAll(removeTempDirs);
 */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * Writes `files` (relative path -> text) under `dir` (default: a new {@link tempDir}), creating folders.
 *
 * @example
 * const dir = writeFiles({ 'multiauth.yaml': yaml, '.env': 'PW=x\n' });
 */
export function writeFiles(files: Record<string, string>, dir = tempDir()): string {
  for (const [name, text] of Object.entries(files)) {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return dir;
}

/**
 * A fresh temporary directory of its own holding `files` (relative path -> text); `remove()`
 * deletes it, for tests that clean up in their own `finally`.
 *
 * @example
 * const { dir, remove } = tempFiles({ '.env': 'PW=x\n' });
 */
export function tempFiles(files: Record<string, string> = {}): { dir: string; remove(): void } {
  const dir = writeFiles(files, mkdtempSync(join(tmpdir(), 'multiauth-')));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Writes a config into a fresh temporary directory of its own ({@link tempFiles}) and returns its
 * path and a cleanup.
 *
 * @example
 * const { file, dir, remove } = writeTempConfig(yaml);
 */
export function writeTempConfig(text: string, fileName = 'multiauth.yaml'): { dir: string; file: string; remove(): void } {
  const { dir, remove } = tempFiles({ [fileName]: text });
  return { dir, file: join(dir, fileName), remove };
}
