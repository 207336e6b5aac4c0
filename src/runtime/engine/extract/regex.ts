import { compileUserRegex, type UserRegex } from '../../../core/regex.js';
import { MultiAuthError } from '../../../core/errors.js';
import type { ConfigPath } from '../../../core/path.js';

/**
 * Compiles an extraction's `regex` (RE2 syntax, linear-time matching: see `compileUserRegex`).
 * Configs written for the Python original are accepted: `(?P<name>...)` and inline flags such as
 * `(?i)` are RE2's own.
 *
 * @throws MultiAuthError `CONFIG_INVALID` at `path` when the pattern is not a valid regular expression.
 * @example
 * compileExtractionRegex('(?i)token=(?P<value>[^;]+)', ['procedures', 0]); // /token=(?<value>[^;]+)/i
 */
export function compileExtractionRegex(pattern: string, path: ConfigPath): UserRegex {
  try {
    return compileUserRegex(pattern);
  } catch (error) {
    throw new MultiAuthError('CONFIG_INVALID', `invalid regular expression: ${(error as Error).message}`, {
      path,
      hint: 'Write a regular expression in RE2 syntax (as JavaScript\'s, without look-around and back-references); the value is its first capture group (or a group named "value").',
      cause: error,
    });
  }
}

/**
 * Applies an extraction regex to one text: the named group `value` when the pattern has one,
 * else the first capture group when it has any, else the whole match. `undefined` when the text
 * does not match (or the chosen group did not take part in the match).
 *
 * @example
 * matchExtractionRegex(compileUserRegex('session=([^;]+)'), 'session=abc; Path=/'); // 'abc'
 * matchExtractionRegex(compileUserRegex('\\d+'), 'id 42');                        // '42'
 */
export function matchExtractionRegex(regex: UserRegex, text: string): string | undefined {
  const match = regex.exec(text);
  if (!match) return undefined;
  if (match.groups && Object.hasOwn(match.groups, 'value')) return match.groups.value;
  if (match.length > 1) return match[1];
  return match[0];
}
