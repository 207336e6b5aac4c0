import { requestPattern } from './pattern.js';

/** Why a request the test sent is not replayed (the run's `skipped` counts the first three). */
export type ReplaySkip = 'unsafe' | 'out_of_scope' | 'assets' | 'duplicate' | 'over_limit';

/** What was not replayed, counted per reason. */
export interface SkippedCounts {
  /** Not GET, HEAD or OPTIONS, and `unsafe` not asked for. */
  unsafe: number;
  /** To an origin outside the user's scope. */
  out_of_scope: number;
  /** A page's image, script, style, font, media... (only fetch/XHR and documents are replayed). */
  assets: number;
  /** Past the bound per test or per run. */
  over_limit: number;
}

/** Requests replayed at most: per test, and per run in one worker process. */
export interface ReplayBounds {
  perTest: number;
  perRun: number;
}

/** The default bounds: a test's first 50 distinct requests, 500 in a run. */
export const DEFAULT_REPLAY_BOUNDS: ReplayBounds = { perTest: 50, perRun: 500 };

/** What a page request is for, as the browser says (Playwright's `resourceType()`); absent: an API request. */
const REPLAYED_RESOURCE_TYPES = new Set(['document', 'fetch', 'xhr']);

/** A request offered to the replay: what a test sent as its user. */
export interface OfferedRequest {
  method: string;
  url: string;
  /** The browser's resource type; absent for a request sent through `authedRequest`. */
  resourceType?: string;
}

/**
 * Chooses, among the requests a test sends, those to replay: safe methods only unless `unsafe`,
 * only to `origins` (the user's scope), only API calls and documents, one per method and URL
 * pattern (per run: `seen` is shared by a worker's tests), bounded per test and per run.
 *
 * @example
 * const selection = new ReplaySelection({ origins: ['https://a.test'], unsafe: false, safeMethods: SAFE_METHODS, seen: new Set(), runCount: { value: 0 } });
 * selection.offer({ method: 'GET', url: 'https://a.test/api/orders/17' }); // 'taken'
 * selection.offer({ method: 'GET', url: 'https://a.test/api/orders/18' }); // 'duplicate'
 */
export class ReplaySelection<T extends OfferedRequest = OfferedRequest> {
  private readonly chosen: Array<T & { pattern: string }> = [];
  private readonly counts: SkippedCounts = { unsafe: 0, out_of_scope: 0, assets: 0, over_limit: 0 };
  private readonly inScope: (origin: string) => boolean;

  /**
   * `origins`: the scope's origins, or a test of an origin (the Playwright scope's globs);
   * `safeMethods`: the format's safe methods (config's `SAFE_METHODS`, given by the caller so that
   * this module loads no schema); `seen` and `runCount` are shared by the selections of one process (the run's patterns, its count).
   */
  constructor(private readonly options: { origins: readonly string[] | ((origin: string) => boolean); unsafe: boolean; safeMethods: ReadonlySet<string>; seen: Set<string>; runCount: { value: number }; bounds?: ReplayBounds }) {
    const { origins } = options;
    if (typeof origins === 'function') this.inScope = origins;
    else {
      const set = new Set(origins.map(originOf).filter((origin): origin is string => origin !== undefined));
      this.inScope = (origin) => set.has(origin);
    }
  }

  /** Offers one request; says whether it is taken or why not. */
  offer(request: T): 'taken' | ReplaySkip {
    const skip = this.skipOf(request);
    if (skip === undefined) return 'taken';
    if (skip !== 'duplicate') this.counts[skip]++;
    return skip;
  }

  /** The requests taken, in the order they were sent, each with its pattern. */
  taken(): ReadonlyArray<T & { pattern: string }> {
    return this.chosen;
  }

  /** What was not replayed (duplicates are not counted: their pattern is replayed). */
  skipped(): SkippedCounts {
    return { ...this.counts };
  }

  private skipOf(request: T): ReplaySkip | undefined {
    if (request.resourceType !== undefined && !REPLAYED_RESOURCE_TYPES.has(request.resourceType)) return 'assets';
    const method = request.method.toUpperCase();
    const origin = originOf(request.url);
    if (origin === undefined || !this.inScope(origin)) return 'out_of_scope';
    if (!this.options.unsafe && !this.options.safeMethods.has(method)) return 'unsafe';
    const pattern = requestPattern(method, request.url);
    if (pattern === undefined) return 'out_of_scope';
    if (this.options.seen.has(pattern)) return 'duplicate';
    const bounds = this.options.bounds ?? DEFAULT_REPLAY_BOUNDS;
    if (this.chosen.length >= bounds.perTest || this.options.runCount.value >= bounds.perRun) return 'over_limit';
    this.options.seen.add(pattern);
    this.options.runCount.value++;
    this.chosen.push({ ...request, pattern });
    return undefined;
  }
}

function originOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}
