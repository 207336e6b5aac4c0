import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { ErrorCode, MultiAuthError, type AuthContext } from '../core/errors.js';

/**
 * What a failed sign-in leaves for the other workers of its run, beside the user's session file:
 * the error, as text already masked. With it, every later test of the user fails at once with the
 * same error instead of signing in again: a wrong password must not cost one failed login per test
 * (identity providers lock accounts after a few).
 */
interface FailureFile {
  /** The run it belongs to (`runId`); a failure of another run is not remembered. */
  run: string;
  code: ErrorCode;
  message: string;
  hint?: string;
  context?: AuthContext;
  details: string[];
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
 * another run's, or unreadable).
 *
 * @example
 * const failed = readFailure(failureFilePath(file), runId(env));
 * if (failed) throw failed;
 */
export function readFailure(path: string, run: string): MultiAuthError | undefined {
  let data: Partial<FailureFile>;
  try {
    data = JSON.parse(readFileSync(path, 'utf8')) as Partial<FailureFile>;
  } catch {
    return undefined;
  }
  if (data.run !== run || typeof data.message !== 'string' || !isErrorCode(data.code)) return undefined;
  const details = Array.isArray(data.details) ? data.details.filter((d): d is string => typeof d === 'string').slice(0, 50) : [];
  return new MultiAuthError(data.code, data.message, {
    ...(typeof data.hint === 'string' ? { hint: data.hint } : {}),
    ...(data.context && typeof data.context === 'object' ? { context: pickContext(data.context as Record<string, unknown>) } : {}),
    details: [...details, 'This sign-in failed earlier in this run: it is not tried again until the next run, so that no account is locked.'],
  });
}

/**
 * Remembers a failed sign-in for the other processes of run `run`: written atomically, mode 0600,
 * every text through `redact` first. A failure to write only costs the others a sign-in attempt.
 *
 * @example
 * writeFailure(failureFilePath(file), runId(env), error, (t) => redactor.redact(t));
 */
export function writeFailure(path: string, run: string, error: MultiAuthError, redact: (text: string) => string): void {
  const body: FailureFile = {
    run,
    code: error.code,
    message: redact(error.message),
    details: error.details.map(redact),
    ...(error.hint === undefined ? {} : { hint: redact(error.hint) }),
    ...(error.context === undefined ? {} : { context: JSON.parse(redact(JSON.stringify(error.context))) as AuthContext }),
  };
  try {
    const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(temp, JSON.stringify(body), { mode: 0o600 });
    renameSync(temp, path);
  } catch {
    // Best effort: see above.
  }
}

/** Forgets a remembered failure (the user signed in since). */
export function forgetFailure(path: string): void {
  rmSync(path, { force: true });
}

function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ErrorCode, value);
}

function pickContext(context: Record<string, unknown>): AuthContext {
  const out: AuthContext = {};
  for (const key of ['user', 'procedure', 'stepKind', 'method', 'url'] as const) {
    if (typeof context[key] === 'string') out[key] = context[key];
  }
  for (const key of ['step', 'status'] as const) {
    if (typeof context[key] === 'number') out[key] = context[key];
  }
  return out;
}
