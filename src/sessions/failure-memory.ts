import { rmSync } from 'node:fs';
import { basename } from 'node:path';
import type { MultiAuthError } from '../core/errors.js';
import { errorData, errorFromData, type ErrorData } from '../core/error-data.js';
import { maskStrings } from '../core/redactor.js';
import { markHolds } from './check-mark.js';
import { readCacheFile, writeCacheFile } from './cache-file.js';
import type { Sealer } from './seal.js';

/** What a sealed failure memory is sealed under, before its slot: never the name a session is sealed under. */
const FAILURE_SEAL = 'failed\0';

/**
 * What a failed sign-in leaves for the other workers of its run, beside the user's session file:
 * the error, as text already masked. With it, every later test of the user fails at once with the
 * same error instead of signing in again: a wrong password must not cost one failed login per test
 * (identity providers lock accounts after a few).
 */
interface FailureFile {
  /** The run it belongs to (`runId`); a failure of another run is not remembered. */
  run: string;
  /** When it was written (Unix ms): it is forgotten after `RUN_MEMORY_MS`, even within its run. */
  at: number;
  error: ErrorData;
}

/**
 * Where the failure of the sign-in that would write `sessionFile` is remembered.
 *
 * @example
 * failureFilePath('.auth/alice-1f2e3d4c5b6a7988.json'); // '.auth/alice-1f2e3d4c5b6a7988.json.failed'
 */
export function failureFilePath(sessionFile: string): string {
  return `${sessionFile}.failed`;
}

/**
 * The failure an earlier process of run `run` remembered, rebuilt as a `MultiAuthError` with its
 * code, context and hint and a line saying it is remembered; undefined when there is none (or it is
 * another run's, older than `RUN_MEMORY_MS`, unreadable, not a regular file, or not sealed with `sealer` for this file).
 *
 * @example
 * const failed = readFailure(failureFilePath(file), runId(env));
 * if (failed) throw failed;
 */
export function readFailure(path: string, run: string, sealer?: Sealer): MultiAuthError | undefined {
  const text = readCacheFile(path);
  return text === undefined || text === 'unusable' ? undefined : decodeFailure(text, run, basename(path), sealer);
}

/**
 * A remembered failure as stored ({@link encodeFailure}) under `name` (the slot's failure key or
 * file), rebuilt when it is run `run`'s and younger than `RUN_MEMORY_MS`; undefined for another run's,
 * an older one, an unreadable text, or, with a `sealer`, one not sealed with it under `name`. For the
 * stores that keep it elsewhere than in a file.
 *
 * @example
 * decodeFailure(await redis.get(key), runId(env), key, sealer);
 */
export function decodeFailure(text: string | null | undefined, run: string, name: string, sealer?: Sealer): MultiAuthError | undefined {
  // With a cache key only a memory sealed with it for this slot counts: whoever can write to the
  // store without the key cannot fail a user's tests with a message of their choosing.
  const plain = sealer ? sealer.open(text, `${FAILURE_SEAL}${name}`) : text;
  let data: Partial<FailureFile>;
  try {
    data = JSON.parse(plain ?? '') as Partial<FailureFile>;
  } catch {
    return undefined;
  }
  if (data === null || typeof data !== 'object' || data.run !== run || !markHolds(data.at, Date.now())) return undefined;
  const error = errorFromData(data.error);
  error?.details.push('This sign-in failed earlier in this run: it is not tried again until the next run (or for an hour), so that no account is locked.');
  return error;
}

/**
 * What a store keeps of a failed sign-in: the run and the error, every text through `redact` first;
 * sealed under `name` (the slot's failure key or file) with `sealer` when a cache key is set, as
 * sessions are, so that it opens only for that slot.
 *
 * @example
 * await redis.set(key, encodeFailure(run, error, (t) => redactor.redact(t), key, sealer));
 */
export function encodeFailure(run: string, error: MultiAuthError, redact: (text: string) => string, name: string, sealer?: Sealer): string {
  // String by string: masking the JSON text could cut through a number (a status, a secret "401").
  const body: FailureFile = { run, at: Date.now(), error: maskStrings(errorData(error), redact) as ErrorData };
  return sealer ? sealer.seal(JSON.stringify(body), `${FAILURE_SEAL}${name}`) : JSON.stringify(body);
}

/**
 * Remembers a failed sign-in for the other processes of run `run`: written atomically, mode 0600,
 * never through a link, every text through `redact` first, sealed with `sealer` when given. A failure to write only costs the others a sign-in attempt.
 *
 * @example
 * writeFailure(failureFilePath(file), runId(env), error, (t) => redactor.redact(t));
 */
export function writeFailure(path: string, run: string, error: MultiAuthError, redact: (text: string) => string, sealer?: Sealer): void {
  try {
    writeCacheFile(path, encodeFailure(run, error, redact, basename(path), sealer));
  } catch {
    // Best effort: see above.
  }
}

/** Forgets a remembered failure (the user signed in since). */
export function forgetFailure(path: string): void {
  rmSync(path, { force: true });
}
