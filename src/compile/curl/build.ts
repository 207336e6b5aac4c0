import type { HttpMethod } from '../../config/schema/index.js';
import type { NameValuesList, RequestTemplate } from '../plan.js';
import { basicAuthorization } from '../../core/basic-auth.js';
import { curlParseError, curlUnsupported } from './errors.js';
import { formPairs, hasTemplate } from './encode.js';
import type { CurlState, DataPiece } from './state.js';
import { normalizeCurlUrl } from './url.js';

/** What curl sends for `--compressed`, minus `zstd`: Node 20 cannot decode it. */
export const COMPRESSED_ACCEPT_ENCODING = 'deflate, gzip, br';

/** curl's redirect limit with `-L` and no `--max-redirs` (also used for `--max-redirs -1`). */
export const CURL_DEFAULT_MAX_REDIRS = 50;

const FORM = 'application/x-www-form-urlencoded';

/**
 * Turns what the options asked for into the request curl would send, by curl's rules: data makes
 * a POST (unless `-X` or `-G`), with `Content-Type: application/x-www-form-urlencoded` unless a
 * `-H Content-Type` (or `--json`) says otherwise; `-G` moves the data to `query`; a custom `-H`
 * replaces (or, as `Name:`, removes) the header curl would add for `-u`, `--oauth2-bearer`, `-A`,
 * `-e`, `--compressed`, `-b` and `--json`; `-L` follows 50 redirects (or `--max-redirs`), none
 * without it; `-m` is rounded up to whole seconds.
 *
 * Headers are in the order curl sends them: its own (Authorization, User-Agent, Referer,
 * Accept-Encoding, Cookie), then the `-H` ones (same names grouped), then `--json`'s, then the
 * form content type. curl's `User-Agent: curl/x` and `Accept: *\/*` defaults are not added.
 *
 * @example
 * buildRequest({ ...emptyCurlState(), urls: ['https://x.test/login'], data: [{ kind: 'data', text: 'a=1' }] });
 * // { url: 'https://x.test/login', method: 'POST', headers: [{ name: 'Content-Type', values: ['application/x-www-form-urlencoded'] }],
 * //   cookies: [], query: [], body: 'a=1', followRedirects: 0 }
 */
export function buildRequest(state: CurlState): RequestTemplate {
  const { url, userinfo } = normalizeCurlUrl(theOnlyUrl(state.urls));
  const custom = customHeaders(state);
  const has = (name: string): boolean => custom.mentioned.has(name.toLowerCase());
  const headers: NameValuesList[] = [];
  const add = (name: string, value: string | undefined): void => {
    if (value !== undefined && value !== '' && !has(name)) headers.push({ name, values: [value] });
  };

  const template: RequestTemplate = { url, method: method(state), headers, cookies: [], query: [] };
  const basic = state.user === undefined ? userinfo : splitUser(state.user);
  if (state.bearer !== undefined) add('Authorization', `Bearer ${state.bearer}`);
  else if (basic && !has('Authorization')) {
    if (hasTemplate(basic.username) || hasTemplate(basic.password)) template.basicAuth = basic;
    else add('Authorization', basicAuthorization(basic.username, basic.password));
  }
  add('User-Agent', state.userAgent);
  add('Referer', state.referer?.replace(/;auto$/, ''));
  if (state.compressed) add('Accept-Encoding', COMPRESSED_ACCEPT_ENCODING);
  if (state.cookies.length) add('Cookie', state.cookies.join(';'));
  headers.push(...custom.list);

  const json = state.data.some((piece) => piece.kind === 'json');
  if (json) {
    add('Content-Type', 'application/json');
    add('Accept', 'application/json');
  }
  const joined = joinData(state.data);
  if (joined !== undefined && state.get) {
    template.query = groupPairs(formPairs(joined));
  } else if (joined !== undefined) {
    if (!json) add('Content-Type', FORM);
    template.body = formObject(state.data, headers) ?? joined;
  }

  const proxy = state.proxy === undefined ? undefined : normalizeProxy(state.proxy);
  if (proxy) template.proxy = proxy;
  if (state.maxTime) template.timeout = Math.ceil(state.maxTime);
  if (state.insecure) template.insecure = true;
  template.followRedirects = !state.location ? 0 : state.maxRedirs === undefined || state.maxRedirs < 0 ? CURL_DEFAULT_MAX_REDIRS : state.maxRedirs;
  return template;
}

function theOnlyUrl(urls: string[]): string {
  if (urls.length === 1) return urls[0] as string;
  if (urls.length === 0) throw curlParseError('no URL', "Give the URL to send the request to, e.g. curl 'https://api.example.test/login'.");
  throw curlParseError(`${urls.length} URLs (the simulator sends one request)`,
    'Keep one URL; quote arguments that hold spaces (e.g. -d "a={{ var }}"), and use curl_sequence for several requests.');
}

function method(state: CurlState): HttpMethod {
  if (state.method !== undefined) return state.method as HttpMethod;
  return state.data.length && !state.get ? 'POST' : 'GET';
}

function splitUser(user: string): { username: string; password: string } {
  const colon = user.indexOf(':');
  return { username: user.slice(0, colon), password: user.slice(colon + 1) };
}

/** The `-H` headers to send, same names (ignoring case) grouped, and every name `-H` mentions. */
function customHeaders(state: CurlState): { list: NameValuesList[]; mentioned: Set<string> } {
  const list: NameValuesList[] = [];
  const mentioned = new Set<string>();
  for (const header of state.headers) {
    const key = header.name.toLowerCase();
    mentioned.add(key);
    if ('remove' in header) continue;
    const existing = list.find((entry) => entry.name.toLowerCase() === key);
    if (existing) existing.values.push(header.value);
    else list.push({ name: header.name, values: [header.value] });
  }
  return { list, mentioned };
}

/** curl joins data pieces with `&`, except that a `--json` piece is appended as is. */
function joinData(pieces: DataPiece[]): string | undefined {
  if (pieces.length === 0) return undefined;
  return pieces.map((piece, index) => (index === 0 || piece.kind === 'json' ? '' : '&') + piece.text).join('');
}

function groupPairs(pairs: Array<[string, string]>): NameValuesList[] {
  const out: NameValuesList[] = [];
  for (const [name, value] of pairs) {
    const existing = out.find((entry) => entry.name === name);
    if (existing) existing.values.push(value);
    else out.push({ name, values: [value] });
  }
  return out;
}

/**
 * A `--data-urlencode 'name={{var}}'` can only be encoded after templating: then the body becomes
 * an object of raw values, which the runtime form-encodes after expanding them (see
 * `RequestTemplate.body`). Only when every piece is a `name=value` field with a distinct,
 * non-numeric name and the content type is the form one; otherwise the text is sent as curl would.
 */
function formObject(pieces: DataPiece[], headers: NameValuesList[]): Record<string, string> | undefined {
  if (!pieces.some((piece) => piece.kind === 'urlencode' && hasTemplate(piece.content ?? ''))) return undefined;
  const contentType = headers.find((h) => h.name.toLowerCase() === 'content-type')?.values[0];
  if (!contentType?.toLowerCase().startsWith(FORM)) return undefined;
  const fields: Array<[string, string]> = [];
  for (const piece of pieces) {
    if (piece.kind === 'json') return undefined;
    if (piece.kind === 'urlencode') {
      if (piece.name === undefined) return undefined;
      fields.push([piece.name, piece.content ?? '']);
    } else {
      const parts = piece.text.split('&');
      if (parts.some((part) => !part.includes('='))) return undefined;
      fields.push(...formPairs(piece.text));
    }
  }
  const names = fields.map(([name]) => name);
  const plain = (name: string): boolean => !/^\d+$/.test(name) && name !== '__proto__' && !hasTemplate(name);
  if (new Set(names).size !== names.length || !names.every(plain)) return undefined;
  return Object.fromEntries(fields);
}

/** `-x host:port` means an HTTP proxy; SOCKS and other schemes are not supported. */
function normalizeProxy(proxy: string): string | undefined {
  const value = proxy.trim();
  if (value === '') return undefined;
  if (value.startsWith('{{')) return value;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined) return `http://${value}`;
  if (scheme === 'http' || scheme === 'https') return value;
  throw curlUnsupported('-x', 'Use an HTTP(S) proxy: -x http://proxy.example.test:3128.', `${scheme} proxies are not supported`);
}
