import type { PlanReauth } from '../../compile/index.js';
import { redactedUrl } from '../../core/urls.js';

/** What a user's "signed out" answers look like (`reauth`), as the fixtures apply it. */
export type SignedOutRule = Pick<PlanReauth, 'onStatus' | 'onRedirect' | 'onBody'>;

/** The rule of a user whose config says nothing: HTTP 401 alone. */
export const DEFAULT_SIGNED_OUT: SignedOutRule = { onStatus: [401], onRedirect: [] };

/**
 * What said a session is dead: a status, a redirect to a URL a glob names (the login page), or a
 * body that an `on_body` pattern matches (with its status: a 200 that says "not logged in").
 */
export type SignedOutTrigger = { status: number } | { redirect: string } | { body: string; status: number };

/** An answer to a request that carried a session, as the fixtures see it. */
export interface Answer {
  status: number;
  /** The URL that answered (after any redirects the client followed). */
  url: string;
  /** The `Location` header of a redirect the client did not follow. */
  location?: string;
  /** The URL asked for, when the client followed redirects: an answer from elsewhere was redirected there. */
  requested?: string;
}

/** The characters of an answer's text that `on_body` reads: a signed-out page or error is short. */
export const ON_BODY_CHARS = 1024 * 1024;

/** An answer declared longer than this (`Content-Length`) is not read for `on_body`: no signed-out page is. */
export const ON_BODY_MAX_BYTES = 4 * 1024 * 1024;

/** Content types never read for `on_body`: they hold no words. */
const BINARY_TYPE = /^\s*(?:image|audio|video|font)\/|^\s*application\/(?:octet-stream|pdf|zip|gzip|wasm)/i;

/**
 * Whether an answer that said nothing by its status or redirect must have its text read for the
 * rule's `on_body`: a rule that has one, an answer that is no redirect (a redirect's text is never
 * read), not a binary content type, and not declared longer than {@link ON_BODY_MAX_BYTES}.
 *
 * @example
 * readsBody({ onStatus: [401], onRedirect: [], onBody: ['Not logged in'] }, 200, { 'content-type': 'text/html' }); // true
 */
export function readsBody(rule: SignedOutRule, status: number, headers: Record<string, string | undefined>): boolean {
  if (!rule.onBody?.length || (status >= 300 && status < 400) || status === 204 || status === 304) return false;
  const type = headers['content-type'];
  if (type !== undefined && BINARY_TYPE.test(type)) return false;
  const length = Number(headers['content-length']);
  return !(Number.isFinite(length) && length > ON_BODY_MAX_BYTES);
}

/** The longest URL or glob matched: longer ones are cut (a glob is at most 2048 characters). */
const MAX_MATCH_LENGTH = 4096;

/**
 * Whether `answer` says the session is dead by `rule`: one of its statuses, or a redirect whose
 * target matches one of its globs. Its body is `signedOutByBody`'s (loaded on first use:
 * `loadSignedOutBody()`), asked when this finds nothing and {@link readsBody} says so. A path glob (`/accounts/login/**`) is matched against the
 * target's path, a URL glob against its origin and path; the query is never matched (login pages
 * carry `?next=`). `*` matches within a path segment, `**` across segments, `?` one character.
 *
 * @example
 * signedOutBy({ onStatus: [401], onRedirect: ['/login'] }, { status: 302, url: 'https://a.test/x', location: '/login?next=/x' });
 * // { redirect: 'https://a.test/login?next=/x' }
 */
export function signedOutBy(rule: SignedOutRule, answer: Answer): SignedOutTrigger | undefined {
  if (rule.onStatus.includes(answer.status)) return { status: answer.status };
  if (rule.onRedirect.length === 0) return undefined;
  if (answer.location !== undefined && answer.status >= 300 && answer.status < 400) {
    const target = resolved(answer.location, answer.url);
    return target && matchesAny(rule.onRedirect, target) ? { redirect: target.href } : undefined;
  }
  if (answer.requested === undefined || sameDocument(answer.requested, answer.url)) return undefined;
  const landed = resolved(answer.url, answer.url);
  const asked = resolved(answer.requested, answer.url);
  // A request for the login page itself is no sign of a dead session.
  if (!landed || (asked && matchesAny(rule.onRedirect, asked)) || !matchesAny(rule.onRedirect, landed)) return undefined;
  return { redirect: landed.href };
}

/**
 * The trigger as annotations say it, without query values: `HTTP 403`, `a redirect to /login`.
 *
 * @example
 * describeTrigger({ redirect: 'https://a.test/accounts/login/?next=/admin/' }, 'https://a.test/admin/'); // 'a redirect to /accounts/login/'
 */
export function describeTrigger(trigger: SignedOutTrigger, from: string): string {
  if ('body' in trigger) return `HTTP ${trigger.status} whose body matches on_body "${cut(trigger.body)}"`;
  if ('status' in trigger) return `HTTP ${trigger.status}`;
  const target = resolved(trigger.redirect, from);
  const origin = resolved(from, from)?.origin;
  return `a redirect to ${target && target.origin === origin ? target.pathname : redactedUrl(trigger.redirect)}`;
}

/**
 * What an answer was, for remembering it as a denial: the trigger's kind (`401`, `redirect`, `body`).
 *
 * @example
 * triggerKind({ status: 403 }); // '403'
 */
export function triggerKind(trigger: SignedOutTrigger): string {
  if ('body' in trigger) return 'body';
  return 'status' in trigger ? String(trigger.status) : 'redirect';
}

/** A pattern as annotations quote it: a config may hold one of 4096 characters. */
function cut(pattern: string): string {
  return pattern.length > 80 ? `${pattern.slice(0, 79)}…` : pattern;
}

function resolved(url: string, base: string): URL | undefined {
  try {
    return new URL(url, base);
  } catch {
    return undefined;
  }
}

function sameDocument(a: string, b: string): boolean {
  const x = resolved(a, b);
  const y = resolved(b, b);
  return x !== undefined && y !== undefined && x.origin === y.origin && x.pathname === y.pathname;
}

function matchesAny(globs: readonly string[], target: URL): boolean {
  return globs.some((glob) => globMatches(glob.slice(0, MAX_MATCH_LENGTH), (glob.startsWith('/') ? target.pathname : target.origin + target.pathname).slice(0, MAX_MATCH_LENGTH)));
}

/**
 * Glob matching by dynamic programming over the two strings (at most 4096 characters each), so no
 * pattern costs more than their product: `**` any characters, `*` any but `/`, `?` one but `/`.
 * The syntax of `reauth.on_redirect`, and of a mail's `link` extractions.
 *
 * @example
 * globMatches('/verify/*', '/verify/abc'); // true
 */
export function globMatches(glob: string, text: string): boolean {
  const tokens: string[] = [];
  for (let i = 0; i < glob.length; i++) {
    if (glob[i] === '*' && glob[i + 1] === '*') {
      tokens.push('**');
      while (glob[i + 1] === '*') i++;
    } else {
      tokens.push(glob[i] as string);
    }
  }
  // row[j]: the tokens so far match text.slice(0, j).
  let row = new Uint8Array(text.length + 1);
  row[0] = 1;
  for (const token of tokens) {
    const next = new Uint8Array(text.length + 1);
    if (token === '**' || token === '*') {
      for (let j = 0; j <= text.length; j++) {
        next[j] = row[j] || (j > 0 && next[j - 1] && (token === '**' || text[j - 1] !== '/')) ? 1 : 0;
      }
    } else {
      for (let j = 1; j <= text.length; j++) next[j] = row[j - 1] && (token === '?' ? text[j - 1] !== '/' : text[j - 1] === token) ? 1 : 0;
    }
    row = next;
  }
  return row[text.length] === 1;
}
