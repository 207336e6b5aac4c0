import type { PlanAccessVerdict } from '../../compile/index.js';
import { compileUserRegex } from '../../core/regex.js';
import { redactedUrl } from '../../core/urls.js';
import { signedOutBy } from '../session/signed-out.js';

/** How an answer counts: the user could (allow), was refused (deny), or no verdict came (error). */
export type AccessOutcome = 'allow' | 'deny' | 'error';

/** One cell of the observed matrix: what one user got from one request, and whether it was expected. */
export interface AccessCell {
  outcome: AccessOutcome;
  /** The HTTP status; absent when no answer came (network error, timeout). */
  status?: number;
  expected: PlanAccessVerdict;
  /** The answer is not what `expect` says: a possible broken access control (or a broken expectation). */
  unexpected: boolean;
  /** Why the cell is classified so, when the status alone does not say it ("a redirect to /login"). */
  why?: string;
}

/**
 * What the matrix observed: users (`expect`'s order) × requests (run order), each cell's outcome.
 * Holds no secret: statuses, names, reasons built from paths without query values.
 */
export interface ObservedMatrix {
  users: string[];
  requests: string[];
  cells: Record<string, Record<string, AccessCell>>;
}

/** The answer to one matrix request, as either sender (undici in the CLI, Playwright in a spec) saw it. */
export interface AccessAnswer {
  /** The URL asked (redirects are not followed). */
  url: string;
  status?: number;
  /** The `Location` of a 3xx. */
  location?: string;
  /** The body's first characters (enough for `not_match`). */
  body?: string;
  /** Why no answer came (already free of secrets), when none did. */
  failure?: string;
}

/** What makes an answer a deny for one user, besides the `deny` statuses. */
export interface DenyRules {
  deny: readonly number[];
  /** Globs of the login page (the user's `reauth.on_redirect`); empty: {@link LOGIN_PATH} decides. */
  loginRedirect: readonly string[];
  /** The user's validation `not_match` (for `anonymous`, the top level's): a 2xx body that matches it is the page of someone signed out. */
  notMatch?: string;
  /** The user's `reauth.on_body` (for `anonymous`, every user's): a 2xx body that matches one says "signed out" too. */
  onBody?: readonly string[];
}

/** A redirect target that looks like a login page, when the config names none: `/login`, `/accounts/signin/`, `/sign_in`, `/logon`. */
export const LOGIN_PATH = /\/(?:log[-_]?in|sign[-_]?in|log[-_]?on)(?:[/.?#]|$)/i;

/** The body characters `not_match` reads: bounded, as the session check's are. */
export const MATCHED_BODY_CHARS = 1024 * 1024;

/**
 * Classifies one answer (docs/access.md "Classification"): no answer or a 5xx is `error`; a `deny`
 * status, a redirect to the login page, or a 2xx whose body matches the user's `not_match` or one
 * of its `on_body` patterns is `deny`; any other 2xx or 3xx is `allow`; any other status (a 404 not listed in `deny`, a 400) is
 * `error`: the request itself may be wrong, so it proves nothing either way.
 *
 * @example
 * classifyAnswer({ url: 'https://a.test/x', status: 302, location: '/login?next=/x' }, { deny: [401, 403], loginRedirect: [] });
 * // { outcome: 'deny', status: 302, why: 'a redirect to the login page (/login)' }
 */
export function classifyAnswer(answer: AccessAnswer, rules: DenyRules): Pick<AccessCell, 'outcome' | 'status' | 'why'> {
  const { status } = answer;
  if (status === undefined) return { outcome: 'error', why: answer.failure ?? 'no answer' };
  if (rules.deny.includes(status)) return { outcome: 'deny', status };
  if (status >= 300 && status < 400) {
    if (answer.location !== undefined && toLoginPage(answer, rules)) return { outcome: 'deny', status, why: `a redirect to the login page (${pathOf(answer.location, answer.url)})` };
    return { outcome: 'allow', status };
  }
  if (status >= 200 && status < 300) {
    const body = (answer.body ?? '').slice(0, MATCHED_BODY_CHARS);
    if (rules.notMatch !== undefined && compileUserRegex(rules.notMatch).test(body)) {
      return { outcome: 'deny', status, why: 'the body matches the user\'s validation not_match' };
    }
    const signedOut = rules.onBody?.find((pattern) => compileUserRegex(pattern).test(body));
    if (signedOut !== undefined) return { outcome: 'deny', status, why: `the body says "signed out" (reauth.on_body "${signedOut.length > 80 ? `${signedOut.slice(0, 79)}…` : signedOut}")` };
    return { outcome: 'allow', status };
  }
  return { outcome: 'error', status, why: status >= 500 ? 'a server error' : `HTTP ${status} is neither allow nor deny (add it to access.deny if it means deny)` };
}

/**
 * The cell for an answer: its classification, compared with what was expected. An exact status
 * expected is met by that status only; `allow` / `deny` by that outcome; an `error` meets nothing.
 *
 * @example
 * accessCell({ outcome: 'allow', status: 200 }, 'deny'); // { outcome: 'allow', status: 200, expected: 'deny', unexpected: true }
 */
export function accessCell(observed: Pick<AccessCell, 'outcome' | 'status' | 'why'>, expected: PlanAccessVerdict): AccessCell {
  const met = typeof expected === 'number' ? observed.status === expected : observed.outcome === expected;
  return { ...observed, expected, unexpected: !met };
}

/**
 * A cell as one word or two, for tables: `allow 200`, `deny 403`, `unexpected allow 200`,
 * `unexpected deny 302`, `error 500`, `error (timeout)`.
 *
 * @example
 * cellText({ outcome: 'allow', status: 200, expected: 'deny', unexpected: true }); // 'unexpected allow 200'
 */
export function cellText(cell: AccessCell): string {
  const status = cell.status === undefined ? '' : ` ${cell.status}`;
  if (cell.outcome === 'error') return `error${status || ' (no answer)'}`;
  return `${cell.unexpected ? 'unexpected ' : ''}${cell.outcome}${status}`;
}

/**
 * A sentence on one unexpected cell, as a failing test and the CLI say it, the URL without query values:
 * `editor was allowed to DELETE https://a.test/api/comments/7: expected deny — possible broken access control (HTTP 200)`.
 *
 * @example
 * cellProblem('editor', { method: 'DELETE', url: 'https://a.test/api/comments/7' }, cell);
 */
export function cellProblem(user: string, request: { method: string; url: string }, cell: AccessCell): string {
  const what = `${request.method} ${redactedUrl(request.url)}`;
  const expected = typeof cell.expected === 'number' ? `HTTP ${cell.expected}` : cell.expected;
  const seen = `(${[cell.status === undefined ? 'no answer' : `HTTP ${cell.status}`, ...(cell.why ? [cell.why] : [])].join(', ')})`;
  if (cell.outcome === 'allow') return `${user} was allowed to ${what}: expected ${expected}${cell.expected === 'deny' ? ' — possible broken access control' : ''} ${seen}`;
  if (cell.outcome === 'deny') return `${user} was denied ${what}: expected ${expected} ${seen}`;
  return `${user} got no verdict for ${what}: expected ${expected} ${seen}`;
}

function toLoginPage(answer: AccessAnswer, rules: DenyRules): boolean {
  if (rules.loginRedirect.length) return signedOutBy({ onStatus: [], onRedirect: [...rules.loginRedirect] }, { status: answer.status as number, url: answer.url, location: answer.location as string }) !== undefined;
  return LOGIN_PATH.test(pathOf(answer.location as string, answer.url));
}

/** A redirect target's path, as messages show it (never its query values). */
function pathOf(location: string, base: string): string {
  try {
    return new URL(location, base).pathname;
  } catch {
    return '(an unreadable URL)';
  }
}
