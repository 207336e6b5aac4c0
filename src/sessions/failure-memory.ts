import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { MultiAuthError } from '../core/errors.js';
import { errorData, errorFromData, type ErrorData } from '../core/error-data.js';
import { markHolds } from './check-mark.js';

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
 * another run's, older than `RUN_MEMORY_MS`, or unreadable).
 *
 * @example
 * const failed = readFailure(failureFilePath(file), runId(env));
 * if (failed) throw failed;
 */
export function readFailure(path: string, run: string): MultiAuthError | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  return decodeFailure(text, run);
}

/**
 * A remembered failure as stored ({@link encodeFailure}), rebuilt when it is run `run`'s and younger
 * than `RUN_MEMORY_MS`; undefined for another run's, an older one or an unreadable text. For the stores that keep it elsewhere than in a file.
 *
 * @example
 * decodeFailure(await redis.get(key), runId(env));
 */
export function decodeFailure(text: string | null | undefined, run: string): MultiAuthError | undefined {
  let data: Partial<FailureFile>;
  try {
    data = JSON.parse(text ?? '') as Partial<FailureFile>;
  } catch {
    return undefined;
  }
  if (data === null || typeof data !== 'object' || data.run !== run || !markHolds(data.at, Date.now())) return undefined;
  const error = errorFromData(data.error);
  error?.details.push('This sign-in failed earlier in this run: it is not tried again until the next run (or for an hour), so that no account is locked.');
  return error;
}

/**
 * What a store keeps of a failed sign-in: the run and the error, every text through `redact` first.
 *
 * @example
 * await redis.set(key, encodeFailure(run, error, (t) => redactor.redact(t)));
 */
export function encodeFailure(run: string, error: MultiAuthError, redact: (text: string) => string): string {
  // Every text of the error at once: masks are JSON-safe.
  const body: FailureFile = { run, at: Date.now(), error: JSON.parse(redact(JSON.stringify(errorData(error)))) as ErrorData };
  return JSON.stringify(body);
}

/**
 * Remembers a failed sign-in for the other processes of run `run`: written atomically, mode 0600,
 * every text through `redact` first. A failure to write only costs the others a sign-in attempt.
 *
 * @example
 * writeFailure(failureFilePath(file), runId(env), error, (t) => redactor.redact(t));
 */
export function writeFailure(path: string, run: string, error: MultiAuthError, redact: (text: string) => string): void {
  try {
    const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(temp, encodeFailure(run, error, redact), { mode: 0o600 });
    renameSync(temp, path);
  } catch {
    // Best effort: see above.
  }
}

/** Forgets a remembered failure (the user signed in since). */
export function forgetFailure(path: string): void {
  rmSync(path, { force: true });
}
