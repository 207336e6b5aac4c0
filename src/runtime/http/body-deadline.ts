import type { Readable } from 'node:stream';

/** How often the deadlines are looked at: a body that outlives its deadline is stopped at most this late. */
const TICK_MS = 50;

/** Response bodies being read, by the time (Unix ms) they must have ended. */
const watched = new Map<Readable, { deadline: number; late: () => Error }>();
let ticker: NodeJS.Timeout | undefined;

/**
 * Destroys `stream` with `late()` if it is still being read at `deadline` (Unix ms, at most
 * {@link TICK_MS} later), until {@link unwatchBody}. undici's `bodyTimeout` bounds the gap between
 * chunks only: a server that sends a byte every half second would hold a sign-in for ever. One
 * ticker serves every body being read, instead of a timer per request: a sign-in that allocates
 * less costs less (docs/performance.md), and the ticker stops when nothing is watched (unref'd, it
 * never keeps a process alive).
 *
 * @example
 * watchBody(stream, Date.now() + 30_000, () => new ExchangeTimeout());
 * try { text = await readBodyText(stream, encoding); } finally { unwatchBody(stream); }
 */
export function watchBody(stream: Readable, deadline: number, late: () => Error): void {
  watched.set(stream, { deadline, late });
  if (!ticker) {
    ticker = setInterval(tick, TICK_MS);
    ticker.unref();
  }
}

/** Stops watching `stream` (its body ended, or failed). */
export function unwatchBody(stream: Readable): void {
  watched.delete(stream);
}

function tick(): void {
  const now = Date.now();
  for (const [stream, { deadline, late }] of watched) {
    if (now < deadline) continue;
    watched.delete(stream);
    stream.destroy(late());
  }
  if (watched.size === 0 && ticker) {
    clearInterval(ticker);
    ticker = undefined;
  }
}
