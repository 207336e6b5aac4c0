import { curlForbidden, curlParseError } from './errors.js';
import { hasTemplate } from './encode.js';

const SCHEME_HINT = 'The simulator sends HTTP(S) requests only: write an http:// or https:// URL.';

/** Hosts from which curl guesses a scheme other than HTTP when the URL has none. */
const GUESSED_SCHEMES: ReadonlyArray<[prefix: string, scheme: string]> = [
  ['ftp.', 'ftp'], ['dict.', 'dict'], ['ldap.', 'ldap'], ['imap.', 'imap'], ['smtp.', 'smtp'], ['pop3.', 'pop3'],
];

/** A URL as the curl command gave it, normalised, and the credentials it carried. */
export interface CurlUrl {
  url: string;
  /** `user[:password]@` of the URL, percent-decoded (curl sends them as HTTP Basic). */
  userinfo?: { username: string; password: string };
}

/**
 * Normalises a URL argument as curl reads it: `http://` is assumed when there is no scheme (curl
 * guesses FTP, DICT, LDAP, IMAP, SMTP or POP3 from hosts named `ftp.`..., which is refused like any
 * non-HTTP scheme); `user:password@` is taken out of the URL. A URL whose scheme comes from a
 * `{{variable}}` (or that starts with one) is accepted as written; the runtime calls
 * {@link checkCurlUrl} on it after templating.
 *
 * @example
 * normalizeCurlUrl('example.com/login');         // { url: 'http://example.com/login' }
 * normalizeCurlUrl('https://a:b@x.test/');       // { url: 'https://x.test/', userinfo: { username: 'a', password: 'b' } }
 * normalizeCurlUrl('{{auth_url}}');              // { url: '{{auth_url}}' }
 */
export function normalizeCurlUrl(raw: string): CurlUrl {
  const url = raw.trim();
  if (url === '') throw curlParseError('the URL is empty', 'Give the URL to send the request to.');
  const schemeEnd = url.indexOf('://');
  const beforeScheme = schemeEnd === -1 ? '' : url.slice(0, schemeEnd);
  if (url.startsWith('{{') || hasTemplate(beforeScheme)) return { url };
  if (schemeEnd !== -1 && /^[A-Za-z][A-Za-z0-9+.-]*$/.test(beforeScheme)) {
    checkScheme(beforeScheme.toLowerCase(), `${beforeScheme}://`);
    return takeUserinfo(url, schemeEnd + 3);
  }
  // `file:/etc/passwd` is read by curl although it has no `//`; `host:8080` and `user:pw@host` are not schemes.
  const pseudoScheme = /^([A-Za-z][A-Za-z0-9+.-]*):(?!\d|\{\{)/.exec(url);
  if (pseudoScheme && !/^[^/?#]*@/.test(url)) checkScheme((pseudoScheme[1] as string).toLowerCase(), `${pseudoScheme[1]}:`);
  const guessed = GUESSED_SCHEMES.find(([prefix]) => url.toLowerCase().startsWith(prefix));
  if (guessed) {
    throw curlForbidden(`${guessed[1]}://`, `curl guesses the ${guessed[1]} scheme from the host name`, SCHEME_HINT);
  }
  return takeUserinfo(`http://${url}`, 'http://'.length);
}

/**
 * Checks a URL after its `{{variables}}` were filled in: it must be an absolute http:// or
 * https:// URL. Call it on every curl request before sending it.
 *
 * @throws MultiAuthError `CURL_FORBIDDEN` for another scheme (file:, gopher:, ...), `CURL_PARSE`
 *   when the text is not a URL. The message never holds the URL (it may carry tokens).
 * @example
 * checkCurlUrl('https://api.example.test/login'); // ok
 * checkCurlUrl('file:///etc/passwd');             // throws CURL_FORBIDDEN
 */
export function checkCurlUrl(url: string): void {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw curlParseError('the URL of the curl request is not an absolute URL after templating', SCHEME_HINT);
  }
  checkScheme(protocol.slice(0, -1), `${protocol}//`);
}

function checkScheme(scheme: string, shown: string): void {
  if (scheme === 'http' || scheme === 'https') return;
  throw curlForbidden(shown, 'only http and https URLs are sent (no files, sockets or other protocols)', SCHEME_HINT);
}

function takeUserinfo(url: string, authorityStart: number): CurlUrl {
  const rest = url.slice(authorityStart);
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  const at = authority.lastIndexOf('@');
  if (at === -1) return { url };
  const userinfo = authority.slice(0, at);
  const colon = userinfo.indexOf(':');
  const username = colon === -1 ? userinfo : userinfo.slice(0, colon);
  const password = colon === -1 ? '' : userinfo.slice(colon + 1);
  return {
    url: url.slice(0, authorityStart) + rest.slice(at + 1),
    userinfo: { username: percentDecode(username), password: percentDecode(password) },
  };
}

function percentDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
