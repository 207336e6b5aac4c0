import type { SignInResult } from '../runtime/index.js';
import type { Sealer } from './seal.js';

/** What a sealed check mark is sealed under, before its slot: never a session's or a failure's name. */
const CHECK_SEAL = 'checked\0';

/**
 * What a store keeps to say that `session` passed its check (`validation`) in run `run`: the run and
 * the session's creation time, sealed under `name` (the slot's mark key or file) with `sealer` when
 * a cache key is set, so that a mark written without the key, or for another slot, counts for nothing.
 *
 * @example
 * await redis.set(key, encodeCheckMark(run, session, key, sealer));
 */
export function encodeCheckMark(run: string, session: SignInResult, name: string, sealer?: Sealer): string {
  const text = JSON.stringify({ run, createdAt: session.createdAt });
  return sealer ? sealer.seal(text, `${CHECK_SEAL}${name}`) : text;
}

/**
 * Whether a stored mark ({@link encodeCheckMark}) says `session` was checked in run `run`: written
 * for this run and this very session, and, with a `sealer`, sealed with it under `name`.
 *
 * @example
 * isCheckedMark(await redis.get(key), run, session, key, sealer);
 */
export function isCheckedMark(text: string | null | undefined, run: string, session: SignInResult, name: string, sealer?: Sealer): boolean {
  const plain = sealer ? sealer.open(text, `${CHECK_SEAL}${name}`) : text;
  try {
    const mark = JSON.parse(plain ?? 'null') as { run?: unknown; createdAt?: unknown } | null;
    return typeof mark === 'object' && mark !== null && mark.run === run && mark.createdAt === session.createdAt;
  } catch {
    return false;
  }
}
