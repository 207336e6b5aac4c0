import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readCacheFile } from './cache-file.js';
import { SESSION_FILE_FORMAT, SESSION_FILE_NAME, type SessionFileBody } from './session-file.js';

/** Leftovers of runs (digests, half-written temp files, failure and check marks) older than this go. */
const STALE_MS = 24 * 60 * 60 * 1000;
/** A cache directory is tidied this many entries at a time: the rest waits for the next run. */
const MAX_ENTRIES = 10_000;

/** What {@link removeUnreachableSessions} removed, by file name. */
export interface TidyResult {
  removed: string[];
}

/**
 * Removes from the cache directory `dir` the session files of config `owner` that no user of the
 * config reaches any more (`reachable`: the file names of its users' current keys), session files
 * of an older format, and what runs leave behind once it is a day old (run digests, temp files,
 * failure and check marks of unreachable files). Files of another config sharing the directory stay,
 * and so does a file under a lock (another process is working on it). Best effort: a file that
 * cannot be read or removed is left for the next run.
 *
 * @example
 * removeUnreachableSessions('.auth', configOwner(file), new Set(['alice-1f2e3d4c5b6a7988.json']));
 */
export function removeUnreachableSessions(dir: string, owner: string, reachable: ReadonlySet<string>, now = Date.now()): TidyResult {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir).slice(0, MAX_ENTRIES);
  } catch {
    return { removed };
  }
  const remove = (name: string): void => {
    try {
      rmSync(join(dir, name), { force: true });
      removed.push(name);
    } catch {
      // Left for the next run.
    }
  };
  const present = new Set(names);
  for (const name of names) {
    if (SESSION_FILE_NAME.test(name)) {
      if (reachable.has(name) || present.has(`${name}.lock`) || !isRemovable(join(dir, name), owner)) continue;
      remove(name);
      for (const mark of ['.failed', '.checked']) if (present.has(name + mark)) remove(name + mark);
    } else if (isLeftover(name, reachable) && isOlderThan(join(dir, name), now - STALE_MS)) {
      remove(name);
    }
  }
  return { removed };
}

/** A session file of this owner, or of an older format (unusable by anyone). */
function isRemovable(path: string, owner: string): boolean {
  const text = readCacheFile(path);
  if (text === undefined || text === 'unusable') return false;
  try {
    const body = JSON.parse(text) as Partial<SessionFileBody> | null;
    if (typeof body !== 'object' || body === null) return false;
    return body.format !== SESSION_FILE_FORMAT || body.owner === owner;
  } catch {
    return false;
  }
}

/** Run digests, temp files, and marks whose session file is unreachable or gone. */
function isLeftover(name: string, reachable: ReadonlySet<string>): boolean {
  if (name.startsWith('run-digest-') || name.endsWith('.tmp')) return true;
  const mark = /^(.+)\.(failed|checked)$/.exec(name);
  return mark !== null && SESSION_FILE_NAME.test(mark[1] as string) && !reachable.has(mark[1] as string);
}

function isOlderThan(path: string, time: number): boolean {
  try {
    return existsSync(path) && statSync(path).mtimeMs < time;
  } catch {
    return false;
  }
}
