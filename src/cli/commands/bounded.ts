import { withContext } from '../../core/error-context.js';
import { isMultiAuthError, MultiAuthError } from '../../core/errors.js';
import type { Redactor } from '../../core/redactor.js';

/** Sign-ins at once by default: enough to be quick, few enough not to look like an attack. */
export const DEFAULT_PARALLEL = 4;
/** The most sign-ins at once `--parallel` may ask for. */
export const MAX_PARALLEL = 32;

/**
 * `--parallel N` as a number, {@link DEFAULT_PARALLEL} when absent.
 *
 * @throws MultiAuthError `CLI_USAGE` for anything but a whole number from 1 to {@link MAX_PARALLEL}.
 * @example
 * parallelOption(values.parallel as string | undefined); // 4
 */
export function parallelOption(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_PARALLEL;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > MAX_PARALLEL) {
    throw new MultiAuthError('CLI_USAGE', `--parallel must be a whole number from 1 to ${MAX_PARALLEL}, got "${raw.slice(0, 20)}"`, {
      hint: `Pass --parallel N, e.g. --parallel ${DEFAULT_PARALLEL}.`,
    });
  }
  return value;
}

/**
 * Runs `work` for every item, at most `parallel` at a time, and calls `done` with each result in
 * the items' order as soon as it and every one before it are done (lines print in the config's
 * order, without waiting for the slowest). `work` must not reject: it returns its failure.
 *
 * @example
 * await inOrderBounded(users, 4, (user) => signIn(user), (outcome) => print(outcome));
 */
export async function inOrderBounded<T, R>(items: readonly T[], parallel: number, work: (item: T) => Promise<R>, done: (result: R, index: number) => void): Promise<R[]> {
  const results: Array<{ value: R } | undefined> = items.map(() => undefined);
  let next = 0;
  let reported = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = { value: await work(items[index] as T) };
      while (reported < items.length && results[reported] !== undefined) {
        done((results[reported] as { value: R }).value, reported);
        reported++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, items.length)) }, worker));
  return results.map((result) => (result as { value: R }).value);
}

/**
 * What one user's failed sign-in is in a many-user command (`check`, `login --all`): the error,
 * masked; a bug met on the way is that user's `INTERNAL` failure, not a crash of the others.
 *
 * @example
 * catch (error) { failures.set(user.name, userFailure(error, redactor)); }
 */
export function userFailure(error: unknown, redactor: Redactor): MultiAuthError {
  const shown = withContext(error, { context: {} }, redactor);
  if (isMultiAuthError(shown)) return shown;
  const text = (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).split('\n')[0]?.slice(0, 200) ?? '';
  return new MultiAuthError('INTERNAL', `internal error: ${redactor.redact(text)}`, { cause: error });
}
