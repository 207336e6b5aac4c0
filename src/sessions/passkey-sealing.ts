import { MultiAuthError, type ConfigIssue } from '../core/errors.js';
import type { Plan, PlanUser } from '../compile/index.js';
import { sealerFromEnv } from './seal.js';
import { cacheOff } from './store-from-env.js';

/**
 * Whether `user` has `passkey: register` and nothing would seal what it registers: the store keeps
 * that passkey whole, private key included, and a private key is never stored unsealed.
 */
export function registersUnsealed(user: Pick<PlanUser, 'passkey'>, env: Record<string, string | undefined>): boolean {
  return user.passkey?.kind === 'register' && sealerFromEnv(env) === undefined;
}

const MESSAGE = (user: string): string =>
  `user "${user}" has passkey: register, and MULTIAUTH_CACHE_KEY is not set: the passkey the app registers (its private key) is never cached unsealed`;
const HINT =
  'Set MULTIAUTH_CACHE_KEY to 32 random bytes in base64 (`openssl rand -base64 32`), the same for every run that shares the store, so the registered passkey is kept sealed (see docs/caching.md); or set MULTIAUTH_CACHE=off to keep it in this process only (registered again by every process).';

/**
 * The error a sign-in of a user that would cache its registered passkey unsealed fails with, before
 * anything is registered or written (see {@link registersUnsealed}).
 *
 * @example
 * if (!cacheOff(env) && registersUnsealed(user, env)) throw unsealedPasskeyError(user);
 */
export function unsealedPasskeyError(user: Pick<PlanUser, 'name' | 'passkey'>): MultiAuthError {
  return new MultiAuthError('AUTH_PASSKEY', MESSAGE(user.name), {
    ...(user.passkey ? { path: user.passkey.origin } : {}),
    context: { user: user.name },
    hint: HINT,
  });
}

/**
 * `multiauth validate`'s warnings about the environment it runs in: one per user whose sign-in
 * would fail with {@link unsealedPasskeyError} (the cache on, no MULTIAUTH_CACHE_KEY).
 *
 * @example
 * unsealedPasskeyWarnings(plan, process.env); // [] when MULTIAUTH_CACHE_KEY is set
 */
export function unsealedPasskeyWarnings(plan: Plan, env: Record<string, string | undefined>): ConfigIssue[] {
  if (cacheOff(env)) return [];
  return plan.users
    .filter((user) => registersUnsealed(user, env))
    .slice(0, 100)
    .map((user) => ({ severity: 'warning' as const, path: user.passkey?.origin ?? [], message: `${MESSAGE(user.name)}: its sign-in will fail`, hint: HINT }));
}
