import { createHash, randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureCacheDir } from './cache-dir.js';

const PREFIX = 'denial-';
const SUSPECT_PREFIX = 'suspect-';

/**
 * How long a denial is remembered: the server's rules may change, and forgetting costs one
 * re-sign-in. Long enough for the next runs of a day to reuse what the first learned.
 */
const DENIAL_MS = 24 * 60 * 60 * 1000;

/** An answer that turned out to be a denial, not a dead session: who asked what, and how it was refused. */
export interface Denial {
  /** The user's session cache key (`userCacheKey`, with the run when sessions are kept for the run only). */
  userKey: string;
  method: string;
  /** Origin and path of the request, no query. */
  path: string;
  /** How it was refused: a status (`401`) or `redirect`. */
  refusal: string;
}

/**
 * Whether `denial` was remembered by a worker of this run or an earlier one ({@link rememberDenial})
 * and has not expired: then the answer goes to the test as it is, without a sign-in.
 *
 * @example
 * if (isKnownDenial('.auth', { userKey, method: 'GET', path: 'https://a.test/settings', refusal: '401' })) return response;
 */
export function isKnownDenial(dir: string, denial: Denial): boolean {
  try {
    return Date.now() - statSync(markerPath(dir, denial)).mtimeMs < DENIAL_MS;
  } catch {
    return false;
  }
}

/**
 * Remembers that `denial` is what the user gets with a working session, for every worker sharing
 * the cache directory `dir`: an empty marker named by a hash (the key names no secret, and a
 * request's path may). Best effort: a marker not written costs a re-sign-in.
 *
 * @example
 * rememberDenial('.auth', { userKey, method: 'GET', path: 'https://a.test/settings', refusal: '401' });
 */
export function rememberDenial(dir: string, denial: Denial): void {
  try {
    ensureCacheDir(dir);
    // A marker that exists is renewed: the denial still stands.
    rmSync(markerPath(dir, denial), { force: true });
    closeSync(openSync(markerPath(dir, denial), 'wx', 0o600));
  } catch {
    return;
  }
  removeExpired(dir);
}

/**
 * Remembers that `denial` signed the user in again and the request could not be sent again to
 * see (a POST, a page's fetch): a session made at `since` or later that is refused the same way
 * proves it a denial ({@link suspectSince}). Best effort, as {@link rememberDenial}.
 *
 * @example
 * rememberSuspect('.auth', { userKey, method: 'POST', path: 'https://a.test/flows', refusal: '401' }, renewed.createdAt);
 */
export function rememberSuspect(dir: string, denial: Denial, since: number): void {
  const path = markerPath(dir, denial, SUSPECT_PREFIX);
  try {
    ensureCacheDir(dir);
    // A new file (never through a link left in the directory), then renamed over the old one.
    const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(temp, String(since), { mode: 0o600, flag: 'wx' });
    renameSync(temp, path);
  } catch {
    // Best effort: see above.
  }
}

/**
 * When the session that replaced one refused as `denial` was made ({@link rememberSuspect}), or
 * undefined (none, expired, unreadable).
 *
 * @example
 * const since = suspectSince('.auth', denial);
 * if (since !== undefined && dead.createdAt >= since) rememberDenial('.auth', denial);
 */
export function suspectSince(dir: string, denial: Denial): number | undefined {
  const path = markerPath(dir, denial, SUSPECT_PREFIX);
  try {
    if (Date.now() - statSync(path).mtimeMs >= DENIAL_MS) return undefined;
    const text = readFileSync(path, 'utf8').slice(0, 20);
    return /^\d{1,16}$/.test(text) ? Number(text) : undefined;
  } catch {
    return undefined;
  }
}

function markerPath(dir: string, { userKey, method, path, refusal }: Denial, prefix = PREFIX): string {
  const hash = createHash('sha256').update(`multiauth-denial\0${userKey}\0${method.toUpperCase()}\0${path}\0${refusal}`).digest('hex');
  return join(dir, `${prefix}${hash.slice(0, 32)}`);
}

function removeExpired(dir: string): void {
  const now = Date.now();
  try {
    for (const name of readdirSync(dir)) {
      if (!name.startsWith(PREFIX) && !name.startsWith(SUSPECT_PREFIX)) continue;
      const path = join(dir, name);
      if (now - statSync(path).mtimeMs > DENIAL_MS) rmSync(path, { force: true });
    }
  } catch {
    // Another worker removed one meanwhile; the next denial tidies up.
  }
}
