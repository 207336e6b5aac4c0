import { looksLikeHtml, readHtml } from '../../http/html-text.js';
import type { AccessAnswer } from '../matrix.js';

/**
 * An answer to a replayed request, as either sender saw it: the matrix's {@link AccessAnswer} and
 * the `Content-Type`, which says how its body is compared.
 */
export interface ReplayAnswer extends AccessAnswer {
  contentType?: string;
}

/** Body characters compared at most: the rest of a larger answer is not looked at. */
export const MAX_COMPARED_CHARS = 1024 * 1024;
/** JSON nesting walked value by value; deeper values are compared as a whole. */
const MAX_JSON_DEPTH = 64;

/** A body in the form it is compared in: JSON by value, anything else by its words (HTML: its visible text). */
type Comparable = { kind: 'json'; value: unknown } | { kind: 'text'; words: string[] };

/**
 * Whether `other` is the owner's answer: the same status (and, for a redirect, the same target
 * path) and the same body (JSON by value; HTML by its visible text, so hidden inputs, `<meta>`,
 * scripts and styles are left out; other text by its words), where whatever differs between the
 * owner's two answers (`owner`, from the test, and `ownerAgain`, sent just before the replays:
 * timestamps, CSRF tokens, nonces) is ignored.
 *
 * @example
 * sameAnswer(
 *   { url, status: 200, body: '{"id":17,"at":"10:01"}', contentType: 'application/json' },
 *   { url, status: 200, body: '{"id":17,"at":"10:02"}', contentType: 'application/json' },
 *   { url, status: 200, body: '{"id":17,"at":"10:03"}', contentType: 'application/json' },
 * ); // true: only "at" differs, and it differs between the owner's two answers too
 */
export function sameAnswer(owner: ReplayAnswer, ownerAgain: ReplayAnswer, other: ReplayAnswer): boolean {
  if (other.status === undefined || other.status !== ownerAgain.status) return false;
  if (owner.status === ownerAgain.status && other.status >= 300 && other.status < 400) {
    const paths = [owner, ownerAgain, other].map((answer) => redirectPath(answer));
    if (paths[0] === paths[1] && paths[2] !== paths[1]) return false;
  }
  const [a, b, c] = [owner, ownerAgain, other].map(comparable) as [Comparable, Comparable, Comparable];
  if (c.kind !== b.kind) return false;
  if (c.kind === 'json' && b.kind === 'json') {
    const ignored = a.kind === 'json' ? jsonDifferences(a.value, b.value) : new Set(['']);
    for (const path of jsonDifferences(b.value, c.value)) if (!coveredBy(path, ignored)) return false;
    return true;
  }
  if (c.kind === 'text' && b.kind === 'text') return sameWords(a.kind === 'text' ? a.words : undefined, b.words, c.words);
  return false;
}

/**
 * A body as it is compared: JSON when the content type or its first character says so and it
 * parses; the visible text of HTML; else its words. At most {@link MAX_COMPARED_CHARS} characters.
 */
function comparable(answer: ReplayAnswer): Comparable {
  const body = (answer.body ?? '').slice(0, MAX_COMPARED_CHARS);
  const start = body.trimStart().charAt(0);
  if ((answer.contentType !== undefined && /json/i.test(answer.contentType)) || start === '{' || start === '[') {
    try {
      return { kind: 'json', value: JSON.parse(body) as unknown };
    } catch {
      // A JSON answer cut at the bound, or not JSON after all: its words are compared.
    }
  }
  const text = looksLikeHtml(body, answer.contentType) ? readHtml(body).text : body;
  return { kind: 'text', words: text.split(/\s+/).filter(Boolean) };
}

/**
 * The paths (`/key/0/name`, escaped as JSON Pointer: RFC 6901) where two JSON values differ.
 * Objects are read as their own entries (never a property by name: a `__proto__` key is data).
 */
export function jsonDifferences(a: unknown, b: unknown): Set<string> {
  const out = new Set<string>();
  walk(a, b, '', 0, out);
  return out;
}

function walk(a: unknown, b: unknown, path: string, depth: number, out: Set<string>): void {
  if (a === b) return;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) {
    out.add(path);
    return;
  }
  if (depth >= MAX_JSON_DEPTH) {
    if (JSON.stringify(a) !== JSON.stringify(b)) out.add(path);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) {
      out.add(path);
      return;
    }
    for (let i = 0; i < a.length; i++) walk(a[i], b[i], `${path}/${i}`, depth + 1, out);
    return;
  }
  const left = new Map(Object.entries(a));
  const right = new Map(Object.entries(b));
  for (const key of new Set([...left.keys(), ...right.keys()])) {
    const child = `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (left.has(key) !== right.has(key)) out.add(child);
    else walk(left.get(key), right.get(key), child, depth + 1, out);
  }
}

/** Whether `path` or a path above it is among `ignored`. */
function coveredBy(path: string, ignored: Set<string>): boolean {
  for (let at = path; ; at = at.slice(0, at.lastIndexOf('/'))) {
    if (ignored.has(at)) return true;
    if (at === '') return false;
  }
}

/**
 * Words compared: where the owner's two answers have as many words, position by position, the
 * positions where they differ ignored; otherwise the words they share at the start and the end must
 * match, and what lies between (the part that changed) is ignored.
 */
function sameWords(first: string[] | undefined, again: string[], other: string[]): boolean {
  if (first === undefined) return false;
  if (first.length === again.length) {
    if (other.length !== again.length) return false;
    return again.every((word, i) => word === other[i] || first[i] !== word);
  }
  let prefix = 0;
  while (prefix < first.length && prefix < again.length && first[prefix] === again[prefix]) prefix++;
  let suffix = 0;
  while (suffix < first.length - prefix && suffix < again.length - prefix && first[first.length - 1 - suffix] === again[again.length - 1 - suffix]) suffix++;
  if (other.length < prefix + suffix) return false;
  for (let i = 0; i < prefix; i++) if (other[i] !== again[i]) return false;
  for (let i = 1; i <= suffix; i++) if (other[other.length - i] !== again[again.length - i]) return false;
  return true;
}

function redirectPath(answer: ReplayAnswer): string | undefined {
  if (answer.location === undefined) return undefined;
  try {
    return new URL(answer.location, answer.url).pathname;
  } catch {
    return answer.location;
  }
}
