import type { RequestTemplate } from '../plan.js';
import { readCurlArgs } from './argv.js';
import { splitBashWords } from './bash.js';
import { buildRequest } from './build.js';
import { looksLikeCmd, splitCmdWords } from './cmd.js';
import { curlForbidden } from './errors.js';

/** Longest command the simulator reads (characters); longer ones are refused before parsing. */
export const MAX_CURL_COMMAND_LENGTH = 64 * 1024;

/**
 * Parses a curl command (as copied from browser dev tools or curl's docs, or written with
 * `{{variables}}`) into the request curl would send, without running a shell, reading a file or
 * sending anything. Bash syntax ("Copy as cURL (bash)") and Windows cmd.exe syntax ("Copy as cURL
 * (cmd)") are both read. `{{var}}` templates are left in the strings for the runtime to fill in;
 * it then calls {@link checkCurlUrl} on the URL.
 *
 * @throws MultiAuthError `CURL_PARSE` (unreadable), `CURL_UNSUPPORTED_OPTION` (an option the
 *   simulator lacks; the hint lists the supported ones), `CURL_FORBIDDEN` (shell operators,
 *   substitutions, `$VAR`, files, sockets, non-HTTP schemes, commands over 64 KiB). Messages quote
 *   only the offending token, never the command (it may hold secrets).
 * @example
 * parseCurl(`curl 'https://api.example.test/login' -H 'Accept: application/json' -d 'username={{username}}'`);
 * // { url: 'https://api.example.test/login', method: 'POST',
 * //   headers: [{ name: 'Accept', values: ['application/json'] },
 * //             { name: 'Content-Type', values: ['application/x-www-form-urlencoded'] }],
 * //   cookies: [], query: [], body: 'username={{username}}', followRedirects: 0 }
 */
export function parseCurl(command: string): RequestTemplate {
  if (command.length > MAX_CURL_COMMAND_LENGTH) {
    throw curlForbidden(`${command.length} characters`, `a curl command is limited to ${MAX_CURL_COMMAND_LENGTH} characters`,
      'Shorten the command; large bodies belong in an http operation.');
  }
  const argv = looksLikeCmd(command) ? splitCmdWords(command) : splitBashWords(command);
  return buildRequest(readCurlArgs(argv));
}
