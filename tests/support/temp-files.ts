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
 * Writes a config into a fresh temporary directory of its own and returns its path and a cleanup.
 *
 * @example
 * const { file, dir, remove } = writeTempConfig(yaml);
 */
export function writeTempConfig(text: string, fileName = 'multiauth.yaml'): { dir: string; file: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'multiauth-cli-'));
  const file = join(dir, fileName);
  writeFileSync(file, text);
  return { dir, file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
