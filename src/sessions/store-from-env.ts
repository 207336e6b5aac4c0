import { MultiAuthError } from '../core/errors.js';
import { redactedUrl } from '../core/urls.js';
import { FileBackend } from './file-backend.js';
import { sealerFromEnv } from './seal.js';
import type { SessionBackend } from './store-backend.js';
import { lazyModule } from '../core/lazy-module.js';

/** Options of {@link sessionBackendFromEnv}. */
export interface BackendChoice {
  /** The cache directory: the file store, and the fallback of a Redis store. */
  dir: string;
  /** The config that writes the files (`configOwner`). */
  owner?: string;
  env: Record<string, string | undefined>;
  /** Where a Redis store's one warning goes when it fails. */
  warn: (text: string) => void;
}

/**
 * The session store the environment asks for: `MULTIAUTH_STORE=redis://host:port/db` (or
 * `rediss://`) a Redis store every machine shares, else the file store in `dir`; either sealed
 * with `MULTIAUTH_CACHE_KEY` when it is set.
 *
 * @throws MultiAuthError `SESSION_CACHE` for a store that is neither, a malformed key, or a Redis
 *   store without a key (unless `MULTIAUTH_STORE_PLAINTEXT=1`).
 * @example
 * const backend = await sessionBackendFromEnv({ dir: '.auth', env: process.env, warn: (t) => process.stderr.write(t) });
 */
export async function sessionBackendFromEnv(choice: BackendChoice): Promise<SessionBackend> {
  const { env } = choice;
  const sealer = sealerFromEnv(env);
  const file = new FileBackend({ dir: choice.dir, ...(choice.owner === undefined ? {} : { owner: choice.owner }), ...(sealer ? { sealer } : {}) });
  const store = env.MULTIAUTH_STORE?.trim();
  if (!store || store === 'file') return file;
  if (!/^rediss?:\/\//i.test(store)) {
    throw new MultiAuthError('SESSION_CACHE', `MULTIAUTH_STORE must be a redis:// or rediss:// URL (or "file"), got ${redactedUrl(store).slice(0, 200)}`, {
      hint: 'Unset it for the file store in .auth/, or write redis://host:port/db.',
    });
  }
  // Loaded only for a Redis store: a worker of a file-store run never needs it.
  const { RedisBackend } = await lazyModule(() => import('./redis-backend.js'));
  return new RedisBackend({
    url: store,
    ...(env.MULTIAUTH_STORE_PASSWORD ? { password: env.MULTIAUTH_STORE_PASSWORD } : {}),
    ...(sealer ? { sealer } : {}),
    plaintext: env.MULTIAUTH_STORE_PLAINTEXT === '1',
    fallback: file,
    warn: choice.warn,
  });
}

/**
 * Whether `MULTIAUTH_CACHE` turns the cross-run cache off (`off`, `0`, `false`): sessions are then
 * shared by the processes of one run only.
 *
 * @example
 * cacheOff({ MULTIAUTH_CACHE: 'off' }); // true
 */
export function cacheOff(env: Record<string, string | undefined>): boolean {
  const mode = (env.MULTIAUTH_CACHE ?? 'on').toLowerCase();
  return mode === 'off' || mode === '0' || mode === 'false';
}
