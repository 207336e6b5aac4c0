import { MultiAuthError } from '../../core/errors.js';

/** Longest piece of a user's command quoted in an error: the command may hold secrets. */
const MAX_QUOTED = 40;

/**
 * Quotes one offending token of a curl command for an error message, cut to a few dozen
 * characters. Never pass the whole command: it may hold passwords, cookies or tokens.
 *
 * @example
 * quoteToken('--output');        // '`--output`'
 * quoteToken('x'.repeat(100));   // '`xxxxxxxx…`' (40 characters kept)
 * quoteToken('`...`');           // '`` `...` ``' (Markdown's way to quote a backtick)
 */
export function quoteToken(token: string): string {
  const visible = token.replace(/[\r\n\t]/g, ' ');
  const cut = visible.length > MAX_QUOTED ? `${visible.slice(0, MAX_QUOTED)}…` : visible;
  return cut.includes('`') ? `\`\` ${cut} \`\`` : `\`${cut}\``;
}

/**
 * A curl command the simulator cannot read (quoting, missing values, bad numbers).
 *
 * @example
 * throw curlParseError('unterminated single quote', 'Close the quote that opens the value.');
 */
export function curlParseError(message: string, hint: string): MultiAuthError {
  return new MultiAuthError('CURL_PARSE', `curl command: ${message}`, { hint });
}

/**
 * Something the sandbox refuses: shell syntax, files, sockets, environment variables, other
 * schemes. `construct` is the offending token, quoted by {@link quoteToken}.
 *
 * @example
 * throw curlForbidden('$(...)', 'command substitution runs a program', 'Write the value itself, or a {{variable}}.');
 */
export function curlForbidden(construct: string, why: string, hint: string): MultiAuthError {
  return new MultiAuthError('CURL_FORBIDDEN', `curl command: ${quoteToken(construct)} is not allowed: ${why}`, { hint });
}

/**
 * An option that the simulator does not implement. The hint lists the supported options.
 *
 * @example
 * throw curlUnsupported('--retry', 'Supported options: -X/--request, ...');
 */
export function curlUnsupported(option: string, hint: string, why?: string): MultiAuthError {
  const reason = why ? `: ${why}` : '';
  return new MultiAuthError('CURL_UNSUPPORTED_OPTION', `curl command: option ${quoteToken(option)} is not supported${reason}`, {
    hint,
  });
}
