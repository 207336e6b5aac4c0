/**
 * Compiles an extraction regex as users write it. Configs pasted from the Python original use
 * Python's syntax for named groups (`(?P<value>...)`) and leading inline flags (`(?i)`); both are
 * translated, so validation and the runtime accept exactly the same patterns.
 *
 * @throws SyntaxError when the pattern is not a valid regular expression.
 * @example
 * compileUserRegex('(?i)token=(?P<value>\\w+)'); // /token=(?<value>\w+)/i
 */
export function compileUserRegex(pattern: string): RegExp {
  let source = pattern.replace(/\(\?P</g, '(?<');
  let flags = '';
  const inline = /^\(\?([ims]+)\)/.exec(source);
  if (inline) {
    flags = [...new Set(inline[1] as string)].join('');
    source = source.slice(inline[0].length);
  }
  return new RegExp(source, flags);
}
