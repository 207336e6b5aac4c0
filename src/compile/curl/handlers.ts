// The schema, not the config door: the simulator's import graph must hold no file or env reader
// (tests/compile/curl/hostile.spec.ts), and the door also exports the loader.
import { HttpMethod } from '../../config/schema/index.js';
import { curlForbidden, curlParseError, quoteToken } from './errors.js';
import { hasTemplate, urlencodeKeepingTemplates } from './encode.js';
import type { CurlState } from './state.js';

/**
 * What the option table's rows do to a {@link CurlState}, one function per behaviour. Each follows
 * curl 7.88/8.x as documented in `man curl` (and checked against real curl, see
 * `tests/compile/curl/parity.spec.ts`).
 */

const FILE_HINT = 'The simulator never reads files: put the content in the command itself ' +
  '(--data-raw sends a leading @ as text), or use a {{variable}}.';

/**
 * `-d`, `--data`, `--data-ascii`, `--data-binary`: the text as is; a leading `@` would make curl
 * read a file (or standard input for `@-`), which the sandbox refuses.
 *
 * @example
 * addData(state, '-d', 'a=1'); // state.data: [{ kind: 'data', text: 'a=1' }]
 */
export function addData(state: CurlState, option: string, value: string): void {
  refuseFileReference(option, value);
  state.data.push({ kind: 'data', text: value });
}

/**
 * `--data-raw`: the text as is, `@` included (curl does not read files for it).
 *
 * @example
 * addRawData(state, '@x'); // state.data: [{ kind: 'data', text: '@x' }]
 */
export function addRawData(state: CurlState, value: string): void {
  state.data.push({ kind: 'data', text: value });
}

/**
 * `--json`: like `--data-binary`, marks the request as JSON (content type and accept headers);
 * several pieces are concatenated without a separator.
 *
 * @example
 * addJson(state, '{"a":1}');
 */
export function addJson(state: CurlState, value: string): void {
  refuseFileReference('--json', value);
  state.data.push({ kind: 'json', text: value });
}

/**
 * `--data-urlencode`, curl's five forms: `content` and `=content` (encoded, no name), `name=content`
 * (name kept, content encoded), `name@file` and `@file` (files: refused). curl looks for `=` first,
 * then for `@`. `{{var}}` templates are kept as written (see {@link urlencodeKeepingTemplates}).
 *
 * @example
 * addUrlencoded(state, 'q=a b&c'); // text 'q=a+b%26c'
 */
export function addUrlencoded(state: CurlState, value: string): void {
  let at = value.indexOf('=');
  if (at === -1) at = value.indexOf('@');
  if (at !== -1 && value[at] === '@') {
    throw curlForbidden('--data-urlencode name@file', 'curl would read a local file', FILE_HINT);
  }
  const name = at > 0 ? value.slice(0, at) : undefined;
  const content = at === -1 ? value : value.slice(at + 1);
  const encoded = urlencodeKeepingTemplates(content);
  const piece = { kind: 'urlencode' as const, text: name === undefined ? encoded : `${name}=${encoded}`, content };
  state.data.push(name === undefined ? piece : { ...piece, name });
}

function refuseFileReference(option: string, value: string): void {
  if (!value.startsWith('@')) return;
  const why = value === '@-' ? 'curl would read standard input' : 'curl would read a local file';
  throw curlForbidden(`${option} @${value === '@-' ? '-' : 'file'}`, why, FILE_HINT);
}

/**
 * `-H`: `Name: value` adds a header; `Name:` removes the header curl would add itself; `Name;`
 * sends an empty header. `@file` (headers from a file) is refused; line breaks are refused (they
 * would smuggle more headers).
 *
 * @example
 * addHeader(state, 'Accept: application/json'); // headers: [{ name: 'Accept', value: 'application/json' }]
 */
export function addHeader(state: CurlState, value: string, option = '-H'): void {
  if (value.startsWith('@')) throw curlForbidden(`${option} @file`, 'curl would read headers from a local file', FILE_HINT);
  if (/[\r\n]/.test(value)) {
    throw curlParseError('a -H value holds a line break', 'Give each header its own -H option.');
  }
  const colon = value.indexOf(':');
  if (colon > 0) {
    const name = checkHeaderName(value.slice(0, colon));
    const content = value.slice(colon + 1).trim();
    state.headers.push(content === '' ? { name, remove: true } : { name, value: content });
    return;
  }
  const trimmed = value.trim();
  if (trimmed.endsWith(';') && trimmed.length > 1) {
    state.headers.push({ name: checkHeaderName(trimmed.slice(0, -1)), value: '' });
    return;
  }
  throw curlParseError('a -H value is not `Name: value`', "Write headers as -H 'Name: value' (or 'Name;' for an empty one).");
}

function checkHeaderName(name: string): string {
  if (/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || hasTemplate(name)) return name;
  throw curlParseError(`header name ${quoteToken(name)} is not valid`, "Write headers as -H 'Name: value'.");
}

/**
 * `-b`: `name=value; name2=value2` is sent as the `Cookie` header, as written. Without `=` curl
 * reads a cookie file, which the sandbox refuses. An empty value is ignored (curl only turns its
 * cookie engine on).
 *
 * @example
 * addCookie(state, 'sid=abc; theme=dark');
 */
export function addCookie(state: CurlState, value: string, option = '-b'): void {
  if (value.trim() === '') return;
  if (!value.includes('=')) {
    throw curlForbidden(`${option} <file>`, 'without `=` curl reads a cookie file', "Write cookies as -b 'name=value; name2=value2'.");
  }
  if (/[\r\n]/.test(value)) throw curlParseError('a -b value holds a line break', "Write cookies as -b 'name=value; name2=value2'.");
  state.cookies.push(value.trim());
}

/**
 * `-X`: the method, upper-cased; it must be one of the format's methods.
 *
 * @example
 * setMethod(state, 'put'); // state.method === 'PUT'
 */
export function setMethod(state: CurlState, value: string): void {
  const method = value.trim().toUpperCase();
  if (!(HttpMethod.options as readonly string[]).includes(method)) {
    throw curlParseError(`-X ${quoteToken(value)}: not a method the format supports`, `Use one of ${HttpMethod.options.join(', ')}.`);
  }
  state.method = method;
}

/**
 * `-u user:password`. Without `:` curl would prompt for the password: an error here.
 *
 * @example
 * setUser(state, 'alice:secret');
 */
export function setUser(state: CurlState, value: string): void {
  if (!value.includes(':')) {
    throw curlParseError('-u has no password (curl would prompt for it)', "Write -u 'user:password' (or -u '{{username}}:{{password}}').");
  }
  state.user = value;
}

/**
 * A number of seconds for `-m`/`--connect-timeout` (curl accepts decimals).
 *
 * @example
 * seconds('-m', '2.5'); // 2.5
 */
export function seconds(option: string, value: string): number {
  if (!/^\d+(\.\d+)?$/.test(value.trim())) {
    throw curlParseError(`${option} needs a number of seconds, got ${quoteToken(value)}`, `Write e.g. ${option} 10.`);
  }
  return Number(value);
}

/**
 * `--max-redirs`: a whole number, `-1` meaning no limit.
 *
 * @example
 * maxRedirs('3'); // 3
 */
export function maxRedirs(value: string): number {
  if (!/^(-1|\d+)$/.test(value.trim())) {
    throw curlParseError(`--max-redirs needs a whole number, got ${quoteToken(value)}`, 'Write e.g. --max-redirs 5 (-1: no limit).');
  }
  return Number(value);
}
