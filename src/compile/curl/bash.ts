import { parse, type ParseEntry } from 'shell-quote';
import { curlForbidden, curlParseError } from './errors.js';

const VARIABLE_HINT = 'The simulator never expands shell variables: write the value, or a {{variable}} of the config.';
const PROGRAM_HINT = 'The simulator never runs programs: write the value itself, or a {{variable}} of the config.';
const OPERATOR_HINT = 'Give a single curl command, without pipes, redirections or command lists; ' +
  'quote any argument that holds `&`, `;`, `|`, `<`, `>` or parentheses (e.g. the URL).';

/** What each shell operator would make bash do, for the error message. */
const OPERATOR_WHY: Record<string, string> = {
  '|': 'pipes the output into another program', '|&': 'pipes the output into another program',
  ';': 'runs another command', '&&': 'runs another command', '||': 'runs another command', '&': 'runs the command in the background',
  ';;': 'ends a case branch', '>': 'writes a file', '>>': 'appends to a file', '>&': 'redirects output', '&>': 'writes a file',
  '<': 'reads a file', '<(': 'runs a program (process substitution)', '>(': 'runs a program (process substitution)',
  '(': 'runs a subshell', ')': 'closes a subshell',
};

/**
 * Splits a bash command line ("Copy as cURL (bash)", curl's docs) into curl's arguments without
 * running a shell: quotes, `$'...'` (ANSI-C, as Chrome writes bodies) and backslash escapes are
 * undone by shell-quote; line continuations (backslash-newline) are joined and comments dropped
 * first. Anything bash would execute or expand is refused instead: operators (`|`, `;`, `&&`,
 * `>`, `<`...), subshells, `$(...)`, backticks, `$VAR`/`${VAR}`, and a line break that would start
 * a second command. Glob characters (`*`, `?`, `[`) are plain text.
 *
 * @throws MultiAuthError `CURL_FORBIDDEN` naming the construct, `CURL_PARSE` for an unterminated quote.
 * @example
 * splitBashWords("curl 'https://x.test/a' \\\n  -H $'X-A: it\\'s'"); // ['curl', 'https://x.test/a', '-H', "X-A: it's"]
 */
export function splitBashWords(command: string): string[] {
  const prepared = prepare(command.replace(/\r\n?/g, '\n'));
  const variables: string[] = [];
  // An env object whose lookups are recorded: shell-quote calls it for every `$NAME`/`${NAME}`
  // (an env *function* would do the same, but makes shell-quote re-split every word: 4x slower).
  const env = new Proxy({} as Record<string, string | undefined>, {
    get: (_target, key) => {
      if (typeof key === 'string' && key !== '') variables.push(key);
      return undefined;
    },
  });
  let entries: ParseEntry[];
  try {
    entries = parse(prepared, env);
  } catch {
    throw curlForbidden('${...}', 'bash would expand a parameter here', VARIABLE_HINT);
  }
  const argv: string[] = [];
  for (const entry of entries) {
    if (typeof entry === 'string') argv.push(entry);
    else if ('comment' in entry) continue;
    else if (entry.op === 'glob') argv.push(entry.pattern);
    else throw curlForbidden(entry.op, `bash ${OPERATOR_WHY[entry.op] ?? 'treats it as an operator'}`, OPERATOR_HINT);
  }
  const variable = variables[0];
  if (variable !== undefined) {
    const shown = /^\w+$/.test(variable) ? `$${variable}` : `\${${variable}}`;
    throw curlForbidden(shown, 'bash would replace it with the value of a shell variable', VARIABLE_HINT);
  }
  return argv;
}

/**
 * Walks the command once, tracking bash's quoting, to do what shell-quote does not: join line
 * continuations, drop comments (shell-quote also takes a `#` inside a word for one), and refuse
 * command substitution and line breaks that start a new command.
 */
function prepare(s: string): string {
  let out = '';
  let quote: 'none' | 'single' | 'double' | 'ansi' = 'none';
  let wordStart = true;
  let sawWord = false;
  const contentEnd = s.trimEnd().length;
  for (let i = 0; i < s.length; i += 1) {
    const c = s[i] as string;
    const next = s[i + 1];
    if (quote === 'single') {
      const end = s.indexOf("'", i);
      if (end === -1) {
        out += s.slice(i);
        break;
      }
      out += s.slice(i, end + 1);
      i = end;
      quote = 'none';
    } else if (quote === 'ansi' || quote === 'double') {
      if (c === '\\') {
        if (!(quote === 'double' && next === '\n')) out += c + (next ?? '');
        i += 1;
        continue;
      }
      if (quote === 'double') refuseSubstitution(c, next);
      out += c;
      if (c === (quote === 'ansi' ? "'" : '"')) quote = 'none';
    } else if (c === '\\') {
      if (next !== '\n' && next !== undefined) {
        out += c + next;
        wordStart = false;
        sawWord = true;
      }
      i += 1;
    } else if (c === '#' && wordStart) {
      const end = s.indexOf('\n', i);
      i = (end === -1 ? s.length : end) - 1;
    } else if (c === '\n') {
      if (i >= contentEnd) break;
      if (sawWord) {
        throw curlForbidden('line break', 'without a trailing backslash, bash starts a second command on the next line',
          'End every line but the last with a backslash (\\), as "Copy as cURL" does.');
      }
      out += ' ';
    } else {
      refuseSubstitution(c, next);
      if (c === "'") quote = 'single';
      else if (c === '"') quote = 'double';
      else if (c === '$' && next === "'") quote = 'ansi';
      out += c === '#' ? '\\#' : c;
      if (quote === 'ansi') {
        out += next;
        i += 1;
      }
      wordStart = c === ' ' || c === '\t' || ';&|()<>'.includes(c);
      sawWord = sawWord || !wordStart;
    }
  }
  if (quote !== 'none') {
    const which = { single: "a single quote (')", double: 'a double quote (")', ansi: "an ANSI-C quote ($')" }[quote];
    throw curlParseError(`${which} is never closed`, 'Close the quote; a value that holds a quote can be written $\'...\\\'...\'.');
  }
  return out;
}

function refuseSubstitution(c: string, next: string | undefined): void {
  if (c === '`') throw curlForbidden('`...`', 'bash would run the command between backticks', PROGRAM_HINT);
  if (c === '$' && next === '(') throw curlForbidden('$(...)', 'bash would run the command inside (command substitution)', PROGRAM_HINT);
  if (c === '$' && next === '"') throw curlForbidden('$"..."', 'bash would translate the string (locale quoting)', 'Use plain double quotes.');
}
