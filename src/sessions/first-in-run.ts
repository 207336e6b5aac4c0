import { createHash } from 'node:crypto';
import { closeSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ensureCacheDir } from './cache-dir.js';

const PREFIX = 'first-in-run-';

/** Markers of runs older than this are deleted: every run leaves one behind. */
const STALE_MS = 24 * 60 * 60 * 1000;

/**
 * True for the first process of a run that asks about `key`, false for every later one: the workers
 * of a run share the cache directory `dir`, where the first creates a marker file (exclusively, so
 * exactly one wins). The marker is named by a hash of `key` and holds nothing, so `key` may be
 * derived from secrets. When the marker cannot be written the answer is true: a message shown
 * twice is better than one never shown.
 *
 * @example
 * if (firstInRun('.auth', `warnings:${loaded.contentHash}:${runId}`)) process.stderr.write(text);
 */
export function firstInRun(dir: string, key: string): boolean {
  const marker = join(dir, `${PREFIX}${createHash('sha256').update(key).digest('hex').slice(0, 16)}`);
  try {
    ensureCacheDir(dir);
    // Exclusive creation: a link or FIFO planted at the name is never followed nor opened (EEXIST).
    closeSync(openSync(marker, 'wx', 0o600));
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'EEXIST';
  }
  removeStaleMarkers(dir);
  return true;
}

function removeStaleMarkers(dir: string): void {
  const now = Date.now();
  try {
    for (const name of readdirSync(dir)) {
      if (!name.startsWith(PREFIX)) continue;
      const path = join(dir, name);
      if (now - statSync(path).mtimeMs > STALE_MS) rmSync(path, { force: true });
    }
  } catch {
    // Another run removed a marker meanwhile; the next run tidies up.
  }
}
