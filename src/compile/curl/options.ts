import { curlForbidden, curlUnsupported } from './errors.js';
import {
  addCookie, addData, addHeader, addJson, addRawData, addUrlencoded, maxRedirs, seconds, setMethod, setUser,
} from './handlers.js';
import type { CurlState } from './state.js';

/**
 * What the simulator does with an option: `request` shapes the request, `ignored` only changes
 * what curl prints (accepted so that pasted commands work), `unsupported` is known but not
 * simulated, `forbidden` would read or write files, open sockets or send traffic elsewhere.
 */
export type CurlOptionKind = 'request' | 'ignored' | 'unsupported' | 'forbidden';

/** One row of {@link CURL_OPTIONS}. */
export interface CurlOptionSpec {
  /** Long name with its dashes, e.g. `--header`. */
  long: string;
  /** Short name with its dash, e.g. `-H`. */
  short?: string;
  /** Other long names curl accepts for the same thing. */
  aliases?: readonly string[];
  /** 1 when the option takes a value (the next argument, or the rest of a short group). */
  arity: 0 | 1;
  kind: CurlOptionKind;
  /** What it does (request, ignored) or why it is refused (unsupported, forbidden): for docs and errors. */
  effect: string;
  /**
   * Applies the option to the state; `value` is given when `arity` is 1. `negated` is true for
   * `--no-<name>` of an arity-0 option (curl's way to switch a flag off). `written` is the name as
   * the command wrote it (`-o` or `--output`), for errors. Refused options throw.
   */
  apply(state: CurlState, value: string | undefined, negated: boolean, written: string): void;
}

const FILES_HINT = 'The simulator never touches files; remove the option (the response is read by the extractions).';
const TRAFFIC_HINT = 'The simulator sends the request to the URL\'s host only (or through -x/--proxy); remove the option.';

const v = (value: string | undefined): string => value as string;
const request = (long: string, short: string | undefined, arity: 0 | 1, effect: string, apply: CurlOptionSpec['apply'], aliases?: string[]): CurlOptionSpec =>
  ({ long, arity, kind: 'request', effect, apply, ...(short ? { short } : {}), ...(aliases ? { aliases } : {}) });
const ignored = (long: string, short: string | undefined, effect: string): CurlOptionSpec =>
  ({ long, arity: 0, kind: 'ignored', effect, apply: () => {}, ...(short ? { short } : {}) });
const forbidden = (long: string, short: string | undefined, arity: 0 | 1, why: string, hint = FILES_HINT): CurlOptionSpec => ({
  long, arity, kind: 'forbidden', effect: why, ...(short ? { short } : {}),
  apply: (_s, _x, _n, written) => { throw curlForbidden(written, why, hint); },
});
const unsupported = (long: string, short: string | undefined, arity: 0 | 1, why: string, hint: string): CurlOptionSpec => ({
  long, arity, kind: 'unsupported', effect: why, ...(short ? { short } : {}),
  apply: (_s, _x, _n, written) => { throw curlUnsupported(written, hint, why); },
});

/**
 * The one table of curl options the simulator knows: what is supported, what is accepted and
 * ignored, and what is refused and why. The parser, the error messages (list of supported
 * options) and `docs/curl.md` all come from it. Adding an option is adding a row.
 *
 * @see https://curl.se/docs/manpage.html
 * @example
 * CURL_OPTIONS.find((o) => o.short === '-H')?.long; // '--header'
 */
export const CURL_OPTIONS: readonly CurlOptionSpec[] = [
  request('--url', undefined, 1, 'URL of the request (like a positional URL)', (s, x, _n, w) => {
    if (v(x).startsWith('@')) throw curlForbidden(`${w} @file`, 'curl would read URLs from a local file', FILES_HINT);
    s.urls.push(v(x));
  }),
  request('--request', '-X', 1, 'method (upper-cased); the body is kept, as curl keeps it', (s, x) => setMethod(s, v(x))),
  request('--header', '-H', 1, 'adds a header (repeatable); `Name:` removes a header curl adds itself, `Name;` sends it empty', (s, x, _n, w) => addHeader(s, v(x), w)),
  request('--cookie', '-b', 1, '`name=value; n2=v2` sent as the `Cookie` header, as written (repeatable)', (s, x, _n, w) => addCookie(s, v(x), w)),
  request('--data', '-d', 1, 'body data, POST, form content type; several joined with `&`', (s, x, _n, w) => addData(s, w, v(x))),
  request('--data-ascii', undefined, 1, 'same as -d', (s, x, _n, w) => addData(s, w, v(x))),
  request('--data-binary', undefined, 1, 'same as -d (sent exactly as written)', (s, x, _n, w) => addData(s, w, v(x))),
  request('--data-raw', undefined, 1, 'same as -d, and a leading `@` is text', (s, x) => addRawData(s, v(x))),
  request('--data-urlencode', undefined, 1, 'body data, URL-encoded: `content`, `=content`, `name=content`', (s, x) => addUrlencoded(s, v(x))),
  request('--json', undefined, 1, 'JSON body, POST, `Content-Type` and `Accept: application/json`; pieces concatenated', (s, x) => addJson(s, v(x))),
  request('--get', '-G', 0, 'sends the data as query parameters of a GET', (s, _x, off) => { s.get = !off; }),
  request('--user', '-u', 1, '`user:password` sent as HTTP Basic', (s, x) => setUser(s, v(x))),
  request('--oauth2-bearer', undefined, 1, '`Authorization: Bearer <token>` (wins over -u, as in curl)', (s, x) => { s.bearer = v(x); }),
  request('--user-agent', '-A', 1, '`User-Agent` header', (s, x) => { s.userAgent = v(x); }),
  request('--referer', '-e', 1, '`Referer` header (`;auto` is dropped)', (s, x) => { s.referer = v(x); }),
  request('--proxy', '-x', 1, 'HTTP(S) proxy for the request (`host:port` means http://)', (s, x) => { s.proxy = v(x); }),
  request('--insecure', '-k', 0, 'does not verify the TLS certificate', (s, _x, off) => { s.insecure = !off; }),
  request('--location', '-L', 0, 'follows redirects (up to 50, or --max-redirs); without it none are followed', (s, _x, off) => { s.location = !off; }),
  request('--max-redirs', undefined, 1, 'redirects followed with -L (-1: 50)', (s, x) => { s.maxRedirs = maxRedirs(v(x)); }),
  request('--compressed', undefined, 0, '`Accept-Encoding: deflate, gzip, br`', (s, _x, off) => { s.compressed = !off; }),
  request('--max-time', '-m', 1, 'timeout in seconds, rounded up (0: the default)', (s, x) => { s.maxTime = seconds('-m', v(x)); }),
  request('--connect-timeout', undefined, 1, 'checked; the request timeout (-m) covers connecting', (s, x) => { s.connectTimeout = seconds('--connect-timeout', v(x)); }),

  ignored('--silent', '-s', 'progress output only'),
  ignored('--show-error', '-S', 'error output only'),
  ignored('--verbose', '-v', 'trace output only'),
  ignored('--include', '-i', 'output only (headers are always observed)'),
  ignored('--fail', '-f', 'a status of 400 or more always fails the step'),
  ignored('--fail-with-body', undefined, 'a status of 400 or more always fails the step'),
  ignored('--no-progress-meter', undefined, 'progress output only'),
  ignored('--progress-bar', '-#', 'progress output only'),
  ignored('--globoff', '-g', 'URLs are never globbed: `[]{}` are always text'),
  ignored('--http1.1', undefined, 'the transport speaks HTTP/1.1'),
  ignored('--http2', undefined, 'the transport speaks HTTP/1.1'),

  forbidden('--output', '-o', 1, 'writes the response to a file'),
  forbidden('--remote-name', '-O', 0, 'writes the response to a file'),
  forbidden('--remote-name-all', undefined, 0, 'writes responses to files'),
  forbidden('--remote-header-name', '-J', 0, 'writes the response to a file'),
  forbidden('--output-dir', undefined, 1, 'writes files'),
  forbidden('--create-dirs', undefined, 0, 'creates directories'),
  forbidden('--config', '-K', 1, 'reads more options from a file'),
  forbidden('--upload-file', '-T', 1, 'uploads a local file'),
  forbidden('--cookie-jar', '-c', 1, 'writes cookies to a file'),
  forbidden('--dump-header', '-D', 1, 'writes headers to a file'),
  forbidden('--write-out', '-w', 1, 'prints variables and can read or write files (`@file`, `%output{}`)'),
  forbidden('--trace', undefined, 1, 'writes a trace file'),
  forbidden('--trace-ascii', undefined, 1, 'writes a trace file'),
  forbidden('--stderr', undefined, 1, 'writes a file'),
  forbidden('--libcurl', undefined, 1, 'writes a source file'),
  forbidden('--netrc', '-n', 0, 'reads credentials from ~/.netrc'),
  forbidden('--netrc-file', undefined, 1, 'reads credentials from a file'),
  forbidden('--netrc-optional', undefined, 0, 'reads credentials from ~/.netrc'),
  forbidden('--cert', '-E', 1, 'reads a client certificate file', 'Use the config\'s `mtls` certificates (repeater_mtls) instead.'),
  forbidden('--key', undefined, 1, 'reads a private key file', 'Use the config\'s `mtls` certificates (repeater_mtls) instead.'),
  forbidden('--cacert', undefined, 1, 'reads a CA file', 'Use -k/--insecure for a test server with its own certificate.'),
  forbidden('--capath', undefined, 1, 'reads a CA directory', 'Use -k/--insecure for a test server with its own certificate.'),
  forbidden('--unix-socket', undefined, 1, 'connects to a local socket instead of the URL\'s host', TRAFFIC_HINT),
  forbidden('--abstract-unix-socket', undefined, 1, 'connects to a local socket instead of the URL\'s host', TRAFFIC_HINT),
  forbidden('--resolve', undefined, 1, 'sends the request to another address than the URL\'s host', TRAFFIC_HINT),
  forbidden('--connect-to', undefined, 1, 'sends the request to another host than the URL\'s', TRAFFIC_HINT),
  forbidden('--interface', undefined, 1, 'chooses the local network interface', TRAFFIC_HINT),
  forbidden('--dns-servers', undefined, 1, 'changes name resolution', TRAFFIC_HINT),
  forbidden('--doh-url', undefined, 1, 'changes name resolution', TRAFFIC_HINT),
  forbidden('--hsts', undefined, 1, 'reads and writes a cache file'),
  forbidden('--alt-svc', undefined, 1, 'reads and writes a cache file'),
  forbidden('--etag-save', undefined, 1, 'writes a file'),
  forbidden('--etag-compare', undefined, 1, 'reads a file'),
  forbidden('--variable', undefined, 1, 'reads environment variables and files', 'Use {{variables}} of the config instead.'),
  {
    long: '--form', short: '-F', arity: 1, kind: 'unsupported', effect: 'multipart bodies are not simulated (`@file` and `<file` read files)',
    apply: (_s, x, _n, written) => {
      const file = /=([@<])/.exec(v(x))?.[1];
      if (file) throw curlForbidden(`${written} name=${file}file`, 'curl would read a local file', FILES_HINT);
      throw curlUnsupported(written, 'Send the fields with -d or --data-urlencode, or use an http operation.', 'multipart bodies are not simulated');
    },
  },
  unsupported('--form-string', undefined, 1, 'multipart bodies are not simulated', 'Send the fields with -d or --data-urlencode.'),
  unsupported('--digest', undefined, 0, 'digest authentication is a preset of its own', 'Use the `digest` preset (or a `tech: digest` operation).'),
  unsupported('--next', '-:', 0, 'a curl operation sends one request', 'Use a `curl_sequence` preset: one curl command per request.'),
  unsupported('--parallel', '-Z', 0, 'a curl operation sends one request', 'Use a `curl_sequence` preset: one curl command per request.'),
  unsupported('--socks5', undefined, 1, 'SOCKS proxies are not supported', 'Use an HTTP(S) proxy with -x/--proxy.'),
  unsupported('--socks5-hostname', undefined, 1, 'SOCKS proxies are not supported', 'Use an HTTP(S) proxy with -x/--proxy.'),
];
