import { dependencyOnFirstUse } from './package-files.js';

/**
 * re2js, loaded on the first user regex: a worker whose sessions are cached compiles none, and
 * loading the engine costs more than the rest of its start.
 */
const re2 = dependencyOnFirstUse<typeof import('re2js')>('re2js');

/**
 * A regex from a config (extractions, session checks, browser wait conditions), run with RE2's
 * linear-time matching (re2js): configs and the bodies they are matched against are untrusted, and
 * a backtracking engine can spend minutes on `(a+)+$`. RE2's syntax is JavaScript's and Python's
 * common ground: named groups `(?P<name>...)` and `(?<name>...)`, inline flags `(?i)`, `(?s)`,
 * `(?m)`; no look-around and no back-references (both need backtracking).
 */
export interface UserRegex {
  /** Whether the pattern matches anywhere in `text`. */
  test(text: string): boolean;
  /** The first match, shaped as `RegExp.prototype.exec`'s (`[0]`, groups by index, `groups` by name), or null. */
  exec(text: string): (string[] & { groups?: Record<string, string | undefined> }) | null;
}

/** Longest pattern accepted: configs are untrusted (a 1 MB pattern is refused, not compiled). */
export const MAX_REGEX_LENGTH = 4096;

/**
 * Compiles a regex as users write it (see {@link UserRegex}).
 *
 * @throws SyntaxError naming what is wrong (RE2's own words; look-around and back-references say
 *   they are unsupported), never the text it would be matched against.
 * @example
 * compileUserRegex('(?i)token=(?P<value>\\w+)').exec('TOKEN=abc')?.groups?.value; // 'abc'
 */
export function compileUserRegex(pattern: string): UserRegex {
  if (pattern.length > MAX_REGEX_LENGTH) throw new SyntaxError(`the pattern is longer than ${MAX_REGEX_LENGTH} characters`);
  try {
    return re2().RE2JS.compile(pattern) as unknown as UserRegex;
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    const unsupported = /invalid or unsupported Perl syntax: `\(\?(?:[=!]|<[=!]|P`)|invalid named capture: `\(\?<[=!]|invalid escape sequence: `\\[1-9k]/.test(reason);
    throw new SyntaxError(unsupported ? `${reason} (look-around and back-references need backtracking, which is refused: untrusted text could make it run for ever)` : reason);
  }
}
