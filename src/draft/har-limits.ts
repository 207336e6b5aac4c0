/**
 * Bounds on a HAR: it is untrusted input, like a config (docs/security.md lists them). Every step
 * of the drafter is linear in what these let through.
 */
export const HAR_LIMITS = Object.freeze({
  /** Bytes of the file. */
  fileBytes: 50 * 1024 * 1024,
  /** Exchanges (`log.entries`). */
  entries: 5_000,
  /** Nesting of objects and arrays in the file (a HAR needs about 8). */
  depth: 64,
  /** Headers, cookies or parameters of one request or response. */
  pairs: 500,
  /** Characters of one body the drafter reads (longer bodies are read up to this). */
  bodyChars: 1024 * 1024,
  /** Nesting of a JSON body the drafter parses (deeper bodies are left unparsed). */
  bodyDepth: 32,
  /** String values the drafter collects from all response bodies together. */
  values: 200_000,
});
