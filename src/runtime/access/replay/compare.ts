import { looksLikeHtml, readHtml } from '../../http/html-text.js';
import type { AccessAnswer } from '../matrix.js';

/**
 * An answer to a replayed request, as either sender saw it: the matrix's {@link AccessAnswer} and
 * the `Content-Type`, which says how its body is compared.
 */
export interface ReplayAnswer extends AccessAnswer {
  contentType?: string;
}

/**
 * Who sent each answer: the identifiers (user name, `username` credential) of the owner and of the
 * replaying user. A word of the text that names the owner in the owner's answers and the replaying
 * user at the same place in its own is the page's greeting ("Welcome, alice"), not its content.
 */
export interface AnswerIdentities {
  owner: readonly string[];
  other: readonly string[];
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
 * timestamps, CSRF tokens, nonces) is ignored. With `identities`, a word of the text naming the
 * owner where the other answer names its own user is the same word (Django's "Welcome, admin.": a
 * page's greeting would make every page of a server-rendered app `different`); JSON is never read so.
 *
 * @example
 * sameAnswer(
 *   { url, status: 200, body: '{"id":17,"at":"10:01"}', contentType: 'application/json' },
 *   { url, status: 200, body: '{"id":17,"at":"10:02"}', contentType: 'application/json' },
 *   { url, status: 200, body: '{"id":17,"at":"10:03"}', contentType: 'application/json' },
 * ); // true: only "at" differs, and it differs between the owner's two answers too
 */
export function sameAnswer(owner: ReplayAnswer, ownerAgain: ReplayAnswer, other: ReplayAnswer, identities?: AnswerIdentities): boolean {
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
  if (c.kind === 'text' && b.kind === 'text') return sameWords(a.kind === 'text' ? a.words : undefined, b.words, c.words, wordEquality(identities));
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
function sameWords(first: string[] | undefined, again: string[], other: string[], equal: (owners: string, others: string) => boolean): boolean {
  if (first === undefined) return false;
  if (first.length === again.length) {
    if (other.length !== again.length) return false;
    return again.every((word, i) => equal(word, other[i] as string) || first[i] !== word);
  }
  let prefix = 0;
  while (prefix < first.length && prefix < again.length && first[prefix] === again[prefix]) prefix++;
  let suffix = 0;
  while (suffix < first.length - prefix && suffix < again.length - prefix && first[first.length - 1 - suffix] === again[again.length - 1 - suffix]) suffix++;
  if (other.length < prefix + suffix) return false;
  for (let i = 0; i < prefix; i++) if (!equal(again[i] as string, other[i] as string)) return false;
  for (let i = 1; i <= suffix; i++) if (!equal(again[again.length - i] as string, other[other.length - i] as string)) return false;
  return true;
}

/** Identifiers matched at most per user (a name and a username are two). */
const MAX_IDENTIFIERS = 8;

/**
 * Word equality: the same word, or, with `identities`, a word naming the owner (its punctuation
 * aside, case ignored) where the other's word names its user with the same punctuation around.
 */
function wordEquality(identities: AnswerIdentities | undefined): (owners: string, others: string) => boolean {
  if (identities === undefined) return (a, b) => a === b;
  const ids = (list: readonly string[]) => new Set(list.slice(0, MAX_IDENTIFIERS).filter((id) => id.length > 0 && id.length <= 256 && !/\s/.test(id)).map((id) => id.toLowerCase()));
  const owner = ids(identities.owner);
  const other = ids(identities.other);
  if (!owner.size || !other.size) return (a, b) => a === b;
  return (a, b) => {
    if (a === b) return true;
    const left = namedIn(a, owner);
    return left !== undefined && left === namedIn(b, other);
  };
}

/** The word with the identifier it holds replaced by a mark (`admin.` -> `\0.`), or undefined when it holds none. */
function namedIn(word: string, ids: ReadonlySet<string>): string | undefined {
  let start = 0;
  let end = word.length;
  while (start < end && !isWordChar(word.charAt(start))) start++;
  while (end > start && !isWordChar(word.charAt(end - 1))) end--;
  if (!ids.has(word.slice(start, end).toLowerCase())) return undefined;
  return `${word.slice(0, start)}\0${word.slice(end)}`;
}

function isWordChar(c: string): boolean {
  return /[\p{L}\p{N}_]/u.test(c);
}

function redirectPath(answer: ReplayAnswer): string | undefined {
  if (answer.location === undefined) return undefined;
  try {
    return new URL(answer.location, answer.url).pathname;
  } catch {
    return answer.location;
  }
}
