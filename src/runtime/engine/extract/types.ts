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

/** Joins names for `seen` lines, `(none)` for an empty list. */
export function listNames(names: Iterable<string>): string {
  const unique = [...new Set(names)];
  return unique.length ? unique.join(', ') : '(none)';
}
