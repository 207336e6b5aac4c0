import { curlParseError, curlUnsupported, quoteToken } from './errors.js';
import { CURL_OPTIONS, type CurlOptionSpec } from './options.js';
import { emptyCurlState, type CurlState } from './state.js';

const byName = new Map<string, CurlOptionSpec>();
for (const option of CURL_OPTIONS) {
  for (const name of [option.long, option.short, ...(option.aliases ?? [])]) if (name) byName.set(name, option);
}

/**
 * The options the simulator accepts, as `-H/--header` pairs, for error hints.
 *
 * @example
 * supportedOptionsText(); // 'URL, --url, -X/--request, -H/--header, ...'
 */
export function supportedOptionsText(): string {
  const names = CURL_OPTIONS.filter((o) => o.kind === 'request' || o.kind === 'ignored')
    .map((o) => (o.short ? `${o.short}/${o.long}` : o.long));
  return `URL, ${names.join(', ')}`;
}

function unknownOption(name: string): never {
  throw curlUnsupported(name, `Supported options: ${supportedOptionsText()}.`);
}

/**
 * Reads curl's argument vector (after shell unquoting) into a {@link CurlState}, as curl's own
 * option parser does: a leading `curl`, long options (`--data x`, and `--data=x` as an
 * extension), `--no-<flag>`, short groups (`-sSL`, `-XPOST`, `-Hname:v`), `--` (the rest are
 * URLs), and positional URLs. An option that takes a value takes the next argument whatever it
 * looks like, as curl does.
 *
 * @throws MultiAuthError `CURL_UNSUPPORTED_OPTION` naming an unknown option (with the list of
 *   supported ones), `CURL_FORBIDDEN` for refused ones, `CURL_PARSE` for a missing value.
 * @example
 * readCurlArgs(['curl', '-sSL', '-XPOST', 'https://x.test']).method; // 'POST'
 */
export function readCurlArgs(argv: readonly string[]): CurlState {
  const state = emptyCurlState();
  let i = argv[0] === 'curl' || argv[0] === 'curl.exe' ? 1 : 0;
  let optionsEnded = false;
  const next = (option: string): string => {
    i += 1;
    const value = argv[i];
    if (value === undefined) throw curlParseError(`option ${quoteToken(option)} needs a value`, `Write ${option} followed by its value.`);
    return value;
  };
  for (; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (optionsEnded || !arg.startsWith('-') || arg === '-') {
      if (arg === 'curl' || arg === 'curl.exe') {
        throw curlParseError('`curl` appears twice: the simulator runs one curl command', 'Keep a single curl command (use curl_sequence for several).');
      }
      state.urls.push(arg);
    } else if (arg === '--') {
      optionsEnded = true;
    } else if (arg.startsWith('--')) {
      readLong(state, arg, next);
    } else {
      readShortGroup(state, arg, next);
    }
  }
  return state;
}

function readLong(state: CurlState, arg: string, next: (option: string) => string): void {
  const eq = arg.indexOf('=');
  const name = eq === -1 ? arg : arg.slice(0, eq);
  const inline = eq === -1 ? undefined : arg.slice(eq + 1);
  let option = byName.get(name);
  let negated = false;
  if (!option && name.startsWith('--no-')) {
    const flag = byName.get(`--${name.slice(5)}`);
    if (flag?.arity === 0) [option, negated] = [flag, true];
  }
  if (!option) unknownOption(name);
  if (option.arity === 0) {
    if (inline !== undefined) throw curlParseError(`option ${quoteToken(name)} takes no value`, `Write ${name} alone.`);
    option.apply(state, undefined, negated, name);
  } else {
    option.apply(state, inline ?? next(name), false, name);
  }
}

function readShortGroup(state: CurlState, arg: string, next: (option: string) => string): void {
  const letters = [...arg.slice(1)];
  for (let j = 0; j < letters.length; j += 1) {
    const name = `-${letters[j]}`;
    const option = byName.get(name);
    if (!option) unknownOption(name);
    if (option.arity === 0) {
      option.apply(state, undefined, false, name);
      continue;
    }
    const rest = letters.slice(j + 1).join('');
    option.apply(state, rest === '' ? next(name) : rest, false, name);
    return;
  }
}
