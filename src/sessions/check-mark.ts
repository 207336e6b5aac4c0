import type { SignInResult } from '../runtime/index.js';
import type { Sealer } from './seal.js';

/**
 * How long what a run remembers holds (a failed sign-in, a session checked): an hour. A run id is
 * unique per run, but one pinned by a CI system (`MULTIAUTH_RUN_ID`) may be reused by a rerun after
 * the password was fixed, and a mark must never hold for good: past this age it is ignored, so a
 * failed user is tried again and a cached session checked again, at most once an hour.
 */
export const RUN_MEMORY_MS = 60 * 60 * 1000;

/** Whether a mark written at `at` (Unix ms) still holds at `now`. */
export function markHolds(at: unknown, now: number): boolean {
  return typeof at === 'number' && at <= now + 60_000 && now - at < RUN_MEMORY_MS;
}

/** What a sealed check mark is sealed under, before its slot: never a session's or a failure's name. */
const CHECK_SEAL = 'checked\0';

/**
 * What a store keeps to say that `session` passed its check (`validation`) in run `run`: the run,
 * the session's creation time and when, sealed under `name` (the slot's mark key or file) with
 * `sealer` when a cache key is set, so that a mark written without the key, or for another slot,
 * counts for nothing.
 *
 * @example
 * await redis.set(key, encodeCheckMark(run, session, key, sealer));
 */
export function encodeCheckMark(run: string, session: SignInResult, name: string, sealer?: Sealer, now = Date.now()): string {
  const text = JSON.stringify({ run, createdAt: session.createdAt, at: now });
  return sealer ? sealer.seal(text, `${CHECK_SEAL}${name}`) : text;
}

/**
 * Whether a stored mark ({@link encodeCheckMark}) says `session` was checked in run `run`: written
 * for this run and this very session, young enough ({@link RUN_MEMORY_MS}), and, with a `sealer`,
 * sealed with it under `name`. False for anything unreadable.
 *
 * @example
 * isCheckedMark(await redis.get(key), run, session, key, sealer);
 */
export function isCheckedMark(
  text: string | null | undefined,
  run: string,
  session: SignInResult,
  name: string,
  sealer?: Sealer,
  now = Date.now(),
): boolean {
  const plain = sealer ? sealer.open(text, `${CHECK_SEAL}${name}`) : text;
  try {
    const mark = JSON.parse(plain ?? 'null') as { run?: unknown; createdAt?: unknown; at?: unknown } | null;
    return typeof mark === 'object' && mark !== null && mark.run === run && mark.createdAt === session.createdAt && markHolds(mark.at, now);
  } catch {
    return false;
  }
}
