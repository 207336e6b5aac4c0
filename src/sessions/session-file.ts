import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { readCacheFile, writeCacheFile } from './cache-file.js';
import type { Sealer } from './seal.js';
import type { SignInResult } from '../runtime/index.js';

/**
 * Bumped when the file layout changes, so old files are ignored instead of misread (and deleted:
 * format 1 files held the config's passwords and static credentials; format 2 was keyed by the
 * whole config and named no owner).
 */
export const SESSION_FILE_FORMAT = 3;

/** What a session file holds. */
export interface SessionFileBody {
  format: number;
  /** The user's cache key (`userCacheKey`, plus the run when sessions are kept for one run only). */
  key: string;
  /** The config that wrote it ({@link configOwner}): a tidy-up removes only its own config's files. */
  owner?: string;
  /** In plaintext, when no `MULTIAUTH_CACHE_KEY` is set. */
  session?: SignInResult;
  /** Sealed with `MULTIAUTH_CACHE_KEY` (see `Sealer`): the session's JSON, under the file's name. */
  sealed?: string;
}

/** Names {@link sessionFilePath} gives: the readable part, then 16 hex digits. */
export const SESSION_FILE_NAME = /^[A-Za-z0-9_.-]{1,40}-[0-9a-f]{16}\.json$/;

/**
 * The id a config's session files carry: a hash of the config file's absolute path, so that two
 * configs sharing a cache directory do not remove each other's sessions.
 *
 * @example
 * configOwner('/repo/multiauth.yaml'); // '5d41402abc4b2a76'
 */
export function configOwner(configFile: string): string {
  return createHash('sha256').update(`multiauth-owner\0${configFile}`).digest('hex').slice(0, 16);
}

/**
 * The cache file of one user: the name carries the user (for people looking at `.auth/`) and a
 * hash of the user's cache key and name, so that a change to what the user's sign-in depends on
 * gives another file, and the old one is no longer reachable.
 *
 * @example
 * sessionFilePath('.auth', 'e3b0…', 'alice'); // '.auth/alice-1f2e3d4c5b6a7988.json'
 */
export function sessionFilePath(dir: string, scopeKey: string, user: string): string {
  const hash = createHash('sha256').update(`${scopeKey}\0${user}`).digest('hex').slice(0, 16);
  const readable = user.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 40) || 'user';
  return join(dir, `${readable}-${hash}.json`);
}

/**
 * Reads a cached session. A missing file gives undefined; so does a corrupted, truncated or foreign
 * file, which is deleted so the next writer starts clean (a crash mid-write must not wedge a run), and
 * whatever else sits at the path (a link, which is not followed; a FIFO, which is not opened).
 * With a `sealer` only a sealed session opens; without one only a plaintext one. A sealed file that
 * does not open (another key, no key) is left for the next writer: no session, a new sign-in.
 */
export function readSessionFile(path: string, scopeKey: string, sealer?: Sealer): SignInResult | undefined {
  const text = readCacheFile(path);
  if (text === undefined) return undefined;
  const found = text === 'unusable' ? 'foreign' : sessionFromBody(text, scopeKey, basename(path), sealer);
  if (found === 'foreign') removeQuietly(path);
  return found === 'foreign' ? undefined : found;
}

/**
 * A stored body (a file's text, a Redis value) as the session it holds under `key`: only a sealed
 * one that opens with `sealer` under `name`, or, without a sealer, only a plaintext one. A sealed
 * body that does not open (another key, no key) is undefined: no session, and the next writer
 * replaces it; so is a plaintext one where a key is set. `'foreign'`: unreadable, or of another
 * format or key.
 *
 * @example
 * sessionFromBody(await redis.get(key), userKey, slot, sealer);
 */
export function sessionFromBody(text: string | null, key: string, name: string, sealer?: Sealer): SignInResult | undefined | 'foreign' {
  const body = parseBody(text ?? '');
  if (body?.format !== SESSION_FILE_FORMAT || body.key !== key) return 'foreign';
  if (body.sealed !== undefined) return sealer ? openSession(sealer, body.sealed, name) : undefined;
  if (!isSession(body.session)) return 'foreign';
  return sealer ? undefined : body.session;
}

/**
 * What a store keeps of a session under `key`: sealed under `name` with `sealer`, else plaintext;
 * `owner` (a file store's config) when given.
 *
 * @example
 * await redis.set(slotKey, JSON.stringify(sessionBody(userKey, session, slot, sealer)));
 */
export function sessionBody(key: string, session: SignInResult, name: string, sealer?: Sealer, owner?: string): SessionFileBody {
  return {
    format: SESSION_FILE_FORMAT,
    key,
    ...(owner === undefined ? {} : { owner }),
    ...(sealer ? { sealed: sealer.seal(JSON.stringify(session), name) } : { session }),
  };
}

/** The session sealed under `name`, or undefined when it does not open or is no session. */
function openSession(sealer: Sealer, sealed: unknown, name: string): SignInResult | undefined {
  const text = sealer.open(sealed, name);
  if (text === undefined) return undefined;
  const session = parseBody(text) as unknown;
  return isSession(session) ? session : undefined;
}

/** Removes what sits at `path` (a link itself, not what it points at); a folder stays. */
function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // A folder, or removed meanwhile: the next writer's rename fails or succeeds on its own.
  }
}

function parseBody(text: string): Partial<SessionFileBody> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null ? (value as Partial<SessionFileBody>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes what a sign-in produced atomically (temp file, then rename) with mode 0600, so a reader
 * never sees half a file and no other local user can read the tokens. Only a {@link SignInResult}:
 * nothing the config holds is written to disk. `owner`: the config that wrote it ({@link configOwner});
 * `sealer`: sealed with `MULTIAUTH_CACHE_KEY`.
 */
export function writeSessionFile(path: string, scopeKey: string, session: SignInResult, owner?: string, sealer?: Sealer): void {
  writeCacheFile(path, JSON.stringify(sessionBody(scopeKey, session, basename(path), sealer, owner)));
}

function isSession(value: unknown): value is SignInResult {
  if (!value || typeof value !== 'object') return false;
  const s = value as Record<string, unknown>;
  return (
    typeof s.user === 'string' &&
    typeof s.headers === 'object' &&
    Array.isArray(s.cookies) &&
    typeof s.createdAt === 'number' &&
    (s.expiresAt === null || typeof s.expiresAt === 'number')
  );
}
