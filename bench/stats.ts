/** One figure of `npm run bench`: ours beside its peer, and the ratio the issue aims for. */
export interface BenchResult {
  name: string;
  ours: number;
  peer: number;
  unit: string;
  /** ours / peer (for a rate such as ops/s: how many times the peer's). */
  ratio: number;
  aim: number;
  /**
   * What the aim bounds: `ratio` (default), or `ours` for an absolute count (sign-ins of a run
   * served from the cache: 0, whatever the peer made).
   */
  aimOn?: 'ratio' | 'ours';
}

/**
 * The median of measured rounds (the mean of the middle two for an even count).
 *
 * @example
 * median([3, 1, 2]); // 2
 */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Two decimals, for printing.
 *
 * @example
 * round(1.23456); // 1.23
 */
export function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/**
 * The CPU time (user + system, all threads of this process) `work` took, in milliseconds.
 *
 * @example
 * const ms = await cpuMs(() => signInAll());
 */
export async function cpuMs(work: () => Promise<void>): Promise<number> {
  const start = process.cpuUsage();
  await work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}
