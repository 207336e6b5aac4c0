import { curlForbidden, curlParseError } from './errors.js';

/**
 * Whether a command was copied for Windows cmd.exe ("Copy as cURL (cmd)" in Chrome or Firefox):
 * lines end with `^` instead of `\`, or values are quoted `^"...^"` (Chrome).
 *
 * @example
 * looksLikeCmd('curl ^"https://x.test/^" ^\n  -H ^"a: b^"'); // true
 * looksLikeCmd("curl 'https://x.test/'");                     // false
 */
export function looksLikeCmd(command: string): boolean {
  return /\^\r?\n/.test(command) || /(?:^|\s)\^"/.test(command);
}

/**
 * Splits a cmd.exe command line into curl's arguments, the way cmd.exe then curl.exe's C runtime
 * would: first cmd's layer (`^x` is a literal `x`, `^` at a line end joins the next line and keeps
 * its first character, `"` toggles cmd's quoting), then the C runtime's (`"` quotes, `\"` is a
 * quote, `""` inside quotes is a quote, backslashes are literal elsewhere). Refused: cmd's
 * operators outside quotes (`&`, `|`, `<`, `>`), `%NAME%` environment variables, and a line break
 * that starts a second command.
 *
 * @see https://learn.microsoft.com/en-us/cpp/c-language/parsing-c-command-line-arguments
 * @example
 * splitCmdWords('curl ^"https://x.test/^" ^\n  --data-raw ^"^{^\\^"a^\\^":1^}^"');
 * // ['curl', 'https://x.test/', '--data-raw', '{"a":1}']
 */
export function splitCmdWords(command: string): string[] {
  const variable = /%[A-Za-z_]\w*%/.exec(command);
  if (variable) {
    throw curlForbidden(variable[0], 'cmd.exe would replace it with the value of an environment variable',
      'The simulator never expands environment variables: write the value, or a {{variable}} of the config.');
  }
  return splitCrtArgs(undoCmdEscapes(command.replace(/\r\n?/g, '\n')));
}

function undoCmdEscapes(s: string): string {
  let out = '';
  let quoted = false;
  let sawContent = false;
  const contentEnd = s.trimEnd().length;
  for (let i = 0; i < s.length; i += 1) {
    const c = s[i] as string;
    if (c === '\n' && i >= contentEnd) break;
    sawContent = sawContent || !/\s/.test(c);
    if (c === '\n' && (quoted || sawContent)) {
      throw curlForbidden('line break', 'without a trailing ^, cmd.exe starts a second command on the next line',
        'End every line but the last with ^, as "Copy as cURL (cmd)" does, or copy as bash.');
    }
    if (quoted) {
      if (c === '"') quoted = false;
      out += c;
    } else if (c === '^') {
      if (s[i + 1] === '\n') i += 1;
      out += s[i + 1] ?? '';
      i += 1;
    } else if (c === '"') {
      quoted = true;
      out += c;
    } else if ('&|<>'.includes(c)) {
      throw curlForbidden(c, 'cmd.exe treats it as an operator (another command, a pipe or a file)',
        'Give a single curl command; escape the character as ^' + c + ' or put it inside quotes.');
    } else {
      out += c;
    }
  }
  if (quoted) throw curlParseError('a double quote (") is never closed', 'Close the quote.');
  return out;
}

function splitCrtArgs(s: string): string[] {
  const args: string[] = [];
  let current = '';
  let inArg = false;
  let quoted = false;
  for (let i = 0; i < s.length; ) {
    const c = s[i] as string;
    if (c === '\\') {
      let end = i;
      while (s[end] === '\\') end += 1;
      const count = end - i;
      if (s[end] === '"') {
        current += '\\'.repeat(count >> 1);
        if (count % 2 === 1) {
          current += '"';
          end += 1;
        }
      } else {
        current += '\\'.repeat(count);
      }
      inArg = true;
      i = end;
    } else if (c === '"') {
      inArg = true;
      if (quoted && s[i + 1] === '"') {
        current += '"';
        i += 2;
      } else {
        quoted = !quoted;
        i += 1;
      }
    } else if (!quoted && (c === ' ' || c === '\t' || c === '\n')) {
      if (inArg) args.push(current);
      current = '';
      inArg = false;
      i += 1;
    } else {
      current += c;
      inArg = true;
      i += 1;
    }
  }
  if (inArg) args.push(current);
  return args;
}
