/**
 * How fast and how long the replay sends: a rate per origin, and a time budget per test and per
 * run. Replays go to the application a suite tests; a replay that floods it or keeps a run going
 * for minutes would cost more than what it finds.
 */

/** The replay's default pace: requests per second to one origin (per worker process). */
export const DEFAULT_REPLAY_RATE = 20;

/** The replay's default time budgets, in seconds: per test, and per run (all workers together). */
export const DEFAULT_REPLAY_TIME = { test: 30, run: 300 } as const;

/** Origins remembered at most; past it the oldest is forgotten (its next request waits no longer). */
const MAX_ORIGINS = 1000;

/** A clock the pacer waits on (a test's own, or the real one). */
export interface PacerClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const REAL_CLOCK: PacerClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * Spaces the requests to each origin by `1000 / rate` milliseconds: {@link ReplayPacer.turn}
 * resolves when the origin's next slot has come. Requests wait in the order they ask.
 *
 * @example
 * const pacer = new ReplayPacer(20);
 * await pacer.turn('https://a.test'); // at once; the next request to a.test waits 50 ms
 */
export class ReplayPacer {
  private readonly next = new Map<string, number>();
  private readonly interval: number;

  /** `rate`: requests per second to one origin (a positive finite number). */
  constructor(rate: number, private readonly clock: PacerClock = REAL_CLOCK) {
    this.interval = 1000 / rate;
  }

  /** Waits for `origin`'s next slot and takes it. */
  async turn(origin: string): Promise<void> {
    const now = this.clock.now();
    const slot = Math.max(now, this.next.get(origin) ?? now);
    this.next.delete(origin);
    if (this.next.size >= MAX_ORIGINS) this.next.delete(this.next.keys().next().value as string);
    this.next.set(origin, slot + this.interval);
    if (slot > now) await this.clock.sleep(slot - now);
  }
}
