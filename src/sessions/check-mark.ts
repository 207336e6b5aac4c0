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

/**
 * The mark that says a session passed its check (`validation`) in run `run`, as stored.
 *
 * @example
 * writeFileSync(`${slot}.checked`, encodeCheckMark(run, session.createdAt, Date.now()));
 */
export function encodeCheckMark(run: string, createdAt: number, now: number): string {
  return JSON.stringify({ run, createdAt, at: now });
}

/**
 * Whether a stored check mark is run `run`'s, for the session made at `createdAt`, and young
 * enough ({@link RUN_MEMORY_MS}); false for anything unreadable.
 *
 * @example
 * isCheckMarkFor(await redis.get(key), run, session.createdAt, Date.now());
 */
export function isCheckMarkFor(text: string | null | undefined, run: string, createdAt: number, now: number): boolean {
  try {
    const mark = JSON.parse(text ?? 'null') as { run?: unknown; createdAt?: unknown; at?: unknown } | null;
    return mark !== null && typeof mark === 'object' && mark.run === run && mark.createdAt === createdAt && markHolds(mark.at, now);
  } catch {
    return false;
  }
}
