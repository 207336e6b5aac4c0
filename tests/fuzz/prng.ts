/**
 * A small seeded pseudo-random generator (mulberry32): the same seed gives the same cases, so a
 * failure reproduces with `MULTIAUTH_FUZZ_SEED=<seed>`.
 */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** One item of a non-empty list. */
  pick<T>(items: readonly T[]): T;
}

/**
 * A generator seeded with `seed` (any 32-bit integer).
 *
 * @example
 * const random = seededRandom(42);
 * random.int(10); // the same number on every run
 */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (n: number): number => Math.floor(next() * Math.max(n, 1));
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[int(items.length)] as T;
    },
  };
}

/**
 * The seed of this run: `MULTIAUTH_FUZZ_SEED` when set (to replay a failure), else a new one.
 *
 * @example
 * const seed = fuzzSeed(process.env);
 */
export function fuzzSeed(env: Record<string, string | undefined>): number {
  const given = env.MULTIAUTH_FUZZ_SEED;
  if (given !== undefined && /^\d+$/.test(given.trim())) return Number(given.trim()) >>> 0;
  return (Date.now() ^ (process.pid << 16)) >>> 0;
}
