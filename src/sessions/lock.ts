import { MultiAuthError } from '../core/errors.js';

/** Options of {@link withFileLock}. */
export interface FileLockOptions {
  /**
   * A lock whose holder stopped refreshing it for this long is taken over: the holder was killed.
   * The holder refreshes it every `staleMs / 2`, so a slow sign-in keeps its lock.
   */
  staleMs?: number;
  /** Give up waiting after about this long. */
  waitMs?: number;
}

/**
 * Runs `fn` while holding an exclusive lock on `path` across processes (Playwright workers), so
 * that concurrent workers wait for one sign-in instead of racing. A lock left by a killed worker
 * goes stale and is taken over.
 *
 * @example
 * const session = await withFileLock('.auth/alice.json', () => signIn('alice'));
 */
export async function withFileLock<T>(path: string, fn: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const staleMs = options.staleMs ?? 10_000;
  const waitMs = options.waitMs ?? 180_000;
  const minTimeout = 25;
  const maxTimeout = 250;
  let compromised: Error | undefined;
  let release: () => Promise<void>;
  // Loaded here, not at import: a worker whose sessions are all cached never takes a lock.
  const { default: lockfile } = await import('proper-lockfile');
  try {
    release = await lockfile.lock(path, {
      realpath: false,
      stale: staleMs,
      retries: { retries: Math.ceil(waitMs / maxTimeout), minTimeout, maxTimeout, factor: 1.5 },
      onCompromised: (error) => {
        compromised = error;
      },
    });
  } catch (cause) {
    throw new MultiAuthError('SESSION_CACHE', `timed out waiting for the session lock ${path}.lock`, {
      cause,
      hint: 'Another process holds it: wait for it to finish, or delete the .lock directory if none is running.',
    });
  }
  try {
    return await fn();
  } finally {
    if (!compromised) await release().catch(() => undefined);
  }
}
