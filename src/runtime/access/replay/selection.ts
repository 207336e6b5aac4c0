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

/** Requests replayed at most: per test, and per run (all its workers together). */
export interface ReplayBounds {
  perTest: number;
  perRun: number;
}

/** The default bounds: a test's first 50 distinct requests, 500 in a run. */
export const DEFAULT_REPLAY_BOUNDS: ReplayBounds = { perTest: 50, perRun: 500 };

/**
 * The run's record of what is replayed, shared by its workers (the sessions layer keeps it in the
 * run's folder): a request, by owner and pattern, is replayed once per run, at most `perRun` in all.
 */
export interface ReplayClaims {
  /** Claims `key` for this process: `taken` once per run, then `duplicate`; `over_limit` past `perRun` claims. */
  claim(key: string, perRun: number): 'taken' | 'duplicate' | 'over_limit';
}

/**
 * Claims kept in this process only: what a run shares when its folder cannot be written.
 *
 * @example
 * const claims = memoryClaims();
 * claims.claim('alice\nGET https://a.test/api/orders/{id}', 500); // 'taken'
 */
export function memoryClaims(): ReplayClaims {
  const seen = new Set<string>();
  return {
    claim(key, perRun) {
      if (seen.has(key)) return 'duplicate';
      if (seen.size >= perRun) return 'over_limit';
      seen.add(key);
      return 'taken';
    },
  };
}

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
 * Chooses, among the requests a test sends as `owner`, those to replay: safe methods only unless
 * `unsafe`, only to `origins` (the user's scope), only API calls and documents, one per owner,
 * method and URL pattern in the run (`claims`, shared by its workers), bounded per test and per run.
 *
 * @example
 * const selection = new ReplaySelection({ owner: 'alice', origins: ['https://a.test'], unsafe: false, safeMethods: SAFE_METHODS, claims: memoryClaims() });
 * selection.offer({ method: 'GET', url: 'https://a.test/api/orders/17' }); // 'taken'
 * selection.offer({ method: 'GET', url: 'https://a.test/api/orders/18' }); // 'duplicate'
 */
export class ReplaySelection<T extends OfferedRequest = OfferedRequest> {
  private readonly chosen: Array<T & { pattern: string }> = [];
  private readonly patterns = new Set<string>();
  private readonly counts: SkippedCounts = { unsafe: 0, out_of_scope: 0, assets: 0, over_limit: 0 };
  private readonly inScope: (origin: string) => boolean;

  /**
   * `origins`: the scope's origins, or a test of an origin (the Playwright scope's globs);
   * `safeMethods`: the format's safe methods (config's `SAFE_METHODS`, given by the caller so that
   * this module loads no schema); `claims`: the run's, shared by the selections of all its tests.
   */
  constructor(private readonly options: { owner: string; origins: readonly string[] | ((origin: string) => boolean); unsafe: boolean; safeMethods: ReadonlySet<string>; claims: ReplayClaims; bounds?: ReplayBounds }) {
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
    if (this.patterns.has(pattern)) return 'duplicate';
    const bounds = this.options.bounds ?? DEFAULT_REPLAY_BOUNDS;
    // The test's bound first: a pattern this test cannot replay stays free for another test.
    if (this.chosen.length >= bounds.perTest) return 'over_limit';
    const claim = this.options.claims.claim(`${this.options.owner}\n${pattern}`, bounds.perRun);
    if (claim !== 'taken') return claim;
    this.patterns.add(pattern);
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
