/**
 * What a location reader found: the candidate values, best first (the first is the value when the
 * extraction has no `regex`; with one, the first candidate it matches wins), and a description of
 * what the observation held there, names only, for the error when nothing is found.
 */
export interface Lookup {
  /** Best first; a reader may compute them as they are asked for (the first is often enough). */
  candidates: Iterable<string>;
  /** Lines such as `response headers: content-type, set-cookie`. Never values. */
  seen: () => string[];
  /** Why nothing could be found, when the reader knows better than "no such key" (a body that is not JSON). */
  reason?: () => string;
}

/** A server chooses how many names a body or a response has: an error line shows this many at most. */
const MAX_NAMES = 30;
/** ... and this many characters of each. */
const MAX_NAME_LENGTH = 60;

/**
 * Joins names for `seen` lines, `(none)` for an empty list; at most {@link MAX_NAMES} names, each
 * cut at {@link MAX_NAME_LENGTH} characters, then how many more there are.
 *
 * @example
 * listNames(['token_type', 'expires_in']); // 'token_type, expires_in'
 */
export function listNames(names: Iterable<string>): string {
  const unique = [...new Set(names)];
  if (!unique.length) return '(none)';
  const shown = unique.slice(0, MAX_NAMES).map((name) => (name.length > MAX_NAME_LENGTH ? `${name.slice(0, MAX_NAME_LENGTH)}...` : name));
  const more = unique.length - shown.length;
  return `${shown.join(', ')}${more > 0 ? `, ... and ${more} more` : ''}`;
}
