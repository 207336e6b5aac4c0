import { redactedUrl } from '../../../core/urls.js';
import { classifyAnswer, type DenyRules } from '../matrix.js';
import { sameAnswer, type AnswerIdentities, type ReplayAnswer } from './compare.js';

/**
 * What one replaying user got: refused (`denied`), no verdict (`error`: no answer, a 5xx, another
 * 4xx), or an answer, the owner's (`same`) or its own (`different`).
 */
export type ReplayVerdict = 'denied' | 'error' | 'same' | 'different';

/** One replay's verdict, its status, and why when the status alone does not say it. */
export interface ReplayCell {
  verdict: ReplayVerdict;
  status?: number;
  why?: string;
}

/** The user without a session, always replayed: it tells a public answer from a shared one. */
export const ANONYMOUS = 'anonymous';

/**
 * The verdict of one replay, classified as the access matrix classifies (docs/access.md
 * "Classification", the same `classifyAnswer` and {@link DenyRules}): a deny is `denied`, an error
 * `error`; an allowed answer is `same` when it is the owner's answer (see `sameAnswer`, which
 * `identities` tells a greeting naming each user from the page's content), else `different`.
 *
 * @example
 * replayVerdict({ url, status: 403 }, { deny: [401, 403], loginRedirect: [] }, owner, ownerAgain); // { verdict: 'denied', status: 403 }
 */
export function replayVerdict(answer: ReplayAnswer, rules: DenyRules, owner: ReplayAnswer, ownerAgain: ReplayAnswer, identities?: AnswerIdentities): ReplayCell {
  const cell = classifyAnswer(answer, rules);
  const why = cell.why === undefined ? {} : { why: cell.why };
  const status = cell.status === undefined ? {} : { status: cell.status };
  if (cell.outcome === 'deny') return { verdict: 'denied', ...status, ...why };
  if (cell.outcome === 'error') return { verdict: 'error', ...status, ...why };
  return { verdict: sameAnswer(owner, ownerAgain, answer, identities) ? 'same' : 'different', ...status };
}

/** What a request's replays mean together. */
export interface ReplayJudgement {
  /** `anonymous` got the owner's answer: the resource is public, nobody's `same` is a finding. */
  public: boolean;
  /** Users (never `anonymous`) who got the owner's answer while `anonymous` was denied. */
  findings: string[];
}

/**
 * Judges a request's replays: `anonymous` `same` makes it public (no finding); otherwise each other
 * user with `same` while `anonymous` is `denied` is a finding. A `different` answer is no finding
 * (the application answered for that user), nor is anything while `anonymous` got an `error`.
 *
 * @example
 * judgeReplays(new Map([['bob', { verdict: 'same' }], ['anonymous', { verdict: 'denied' }]])); // { public: false, findings: ['bob'] }
 */
export function judgeReplays(replays: ReadonlyMap<string, ReplayCell>): ReplayJudgement {
  const anonymous = replays.get(ANONYMOUS)?.verdict;
  if (anonymous === 'same') return { public: true, findings: [] };
  if (anonymous !== 'denied') return { public: false, findings: [] };
  const findings = [...replays].filter(([user, cell]) => user !== ANONYMOUS && cell.verdict === 'same').map(([user]) => user);
  return { public: false, findings };
}

/**
 * A finding as a sentence, the URL as a path without query values:
 * `bob gets alice's answer to GET /api/orders/17 (anonymous is denied): possible broken object-level authorization`.
 *
 * @example
 * findingText('bob', 'alice', 'GET', 'https://a.test/api/orders/17?t=x'); // 'bob gets alice's answer to GET /api/orders/17?t=… (anonymous is denied): …'
 */
export function findingText(user: string, owner: string, method: string, url: string): string {
  return `${user} gets ${owner}'s answer to ${method} ${pathOf(url)} (anonymous is denied): possible broken object-level authorization`;
}

/** A URL as messages show it: its path and query names, values masked; the whole (masked) URL when it does not parse. */
export function pathOf(url: string): string {
  const masked = redactedUrl(url);
  try {
    const parsed = new URL(masked);
    return `${parsed.pathname}${masked.includes('?') ? masked.slice(masked.indexOf('?')) : ''}`;
  } catch {
    return masked;
  }
}
