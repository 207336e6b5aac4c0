import type { ConfigPath } from '../core/path.js';
import type {
  CredentialCookie,
  Credentials,
  HttpRequestParameters,
  HttpRequestPreset,
  NameValues,
  Scopes,
  StringMap,
  TokenExtraction,
  TokenInjection,
  Variables,
} from '../config/index.js';
import type {
  NameValuesList,
  PlanCookie,
  PlanCredentials,
  PlanExtraction,
  PlanInjection,
  RequestTemplate,
} from './plan.js';

/**
 * Shape normalisation shared by every compiler: the format accepts several spellings of the same
 * thing (a `values` string or list, `queryParameters` or `query_parameters`, variables as a list or
 * a map); the Plan has one.
 */

/**
 * HTTPHeader/HTTPCookie/HTTPQueryParameter lists with `values` always a list.
 *
 * @example
 * nameValuesList([{ name: 'Accept', values: 'application/json' }]);
 * // [{ name: 'Accept', values: ['application/json'] }]
 */
export function nameValuesList(list: readonly NameValues[] | undefined): NameValuesList[] {
  return (list ?? []).map(({ name, values }) => ({ name, values: typeof values === 'string' ? [values] : [...values] }));
}

/**
 * A preset's `Dict[string, string]` (headers, cookies, query parameters) as a name/values list, in
 * the order written.
 *
 * @example
 * mapToList({ 'X-Tenant': 'acme' }); // [{ name: 'X-Tenant', values: ['acme'] }]
 */
export function mapToList(map: StringMap | undefined): NameValuesList[] {
  return Object.entries(map ?? {}).map(([name, value]) => ({ name, values: [value] }));
}

/**
 * Variables as a record, from the spec's `[{name, value}]` list or from a map.
 *
 * @example
 * variablesRecord([{ name: 'tenant', value: 'acme' }]); // { tenant: 'acme' }
 */
export function variablesRecord(variables: Variables | undefined): Record<string, string> {
  if (variables === undefined) return {};
  if (Array.isArray(variables)) return Object.fromEntries(variables.map(({ name, value }) => [name, value]));
  return { ...variables };
}

/**
 * OAuth scopes as sent: space-separated (RFC 6749 section 3.3). `undefined` when none are given,
 * so that no `scope` parameter is sent at all.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-3.3
 * @example
 * scopesString(['read', 'write']); // 'read write'
 * scopesString([]);                // undefined
 */
export function scopesString(scopes: Scopes | undefined): string | undefined {
  const joined = (typeof scopes === 'string' ? scopes : (scopes ?? []).join(' ')).trim();
  return joined === '' ? undefined : joined;
}

/**
 * A generic user's credentials (spec: Credentials). `basic` is `requests` when both `username` and
 * `password` are given and the user has no procedure (`signsIn` false): its authentication is then
 * HTTP Basic. A user with a procedure sends them nowhere by itself; its templates may
 * (DESIGN.md "Requests").
 *
 * @example
 * credentials({ username: 'alice', password: 'pw', query_parameters: [{ name: 'k', values: 'v' }] }, false);
 * // { username: 'alice', password: 'pw', headers: [], cookies: [], query: [{ name: 'k', values: ['v'] }], basic: 'requests' }
 */
export function credentials(input: Credentials | undefined, signsIn: boolean): PlanCredentials {
  const out: PlanCredentials = {
    headers: nameValuesList(input?.headers),
    cookies: (input?.cookies ?? []).map(planCookie),
    query: nameValuesList(input?.queryParameters ?? input?.query_parameters),
    basic: !signsIn && input?.username !== undefined && input?.password !== undefined ? 'requests' : 'none',
  };
  if (input?.username !== undefined) out.username = input.username;
  if (input?.password !== undefined) out.password = input.password;
  if (input?.body !== undefined) out.body = input.body;
  if (input?.local_storage !== undefined || input?.session_storage !== undefined) {
    out.storage = { localStorage: storageItems(input.local_storage), sessionStorage: storageItems(input.session_storage) };
  }
  return out;
}

/** A credential cookie with `value` or `values` as a list, and its attributes in the plan's names. */
function planCookie(cookie: CredentialCookie): PlanCookie {
  const values = cookie.values === undefined ? [cookie.value ?? ''] : typeof cookie.values === 'string' ? [cookie.values] : [...cookie.values];
  const out: PlanCookie = { name: cookie.name, values };
  if (cookie.domain !== undefined) out.domain = cookie.domain;
  if (cookie.path !== undefined) out.path = cookie.path;
  if (cookie.secure !== undefined) out.secure = cookie.secure;
  if (cookie.http_only !== undefined) out.httpOnly = cookie.http_only;
  if (cookie.same_site !== undefined) out.sameSite = cookie.same_site;
  return out;
}

function storageItems(map: StringMap | undefined): Array<{ name: string; value: string }> {
  return Object.entries(map ?? {}).map(([name, value]) => ({ name, value }));
}

/**
 * Credentials of a preset user: the per-user maps as lists, plus whatever the preset adds.
 *
 * @example
 * presetCredentials({ headers: { 'X-Tenant': 'acme' } }, { username: 'alice', password: 'pw', basic: 'requests' });
 */
export function presetCredentials(
  user: { headers?: StringMap; cookies?: StringMap },
  extra: Partial<PlanCredentials> = {},
): PlanCredentials {
  return {
    headers: mapToList(user.headers),
    cookies: mapToList(user.cookies),
    query: [],
    basic: 'none',
    ...extra,
  };
}

/**
 * The request of an `http` operation or a digest sequence, normalised.
 *
 * @example
 * requestTemplate({ url: 'https://x/login', method: 'POST', headers: [], cookies: [], follow_redirects: 0 });
 * // { url: 'https://x/login', method: 'POST', headers: [], cookies: [], query: [], followRedirects: 0 }
 */
export function requestTemplate(parameters: HttpRequestParameters): RequestTemplate {
  const out: RequestTemplate = {
    url: parameters.url,
    method: parameters.method,
    headers: nameValuesList(parameters.headers),
    cookies: nameValuesList(parameters.cookies),
    query: nameValuesList(parameters.queryParameters ?? parameters.query_parameters),
  };
  if (parameters.body !== undefined) out.body = parameters.body;
  if (parameters.proxy !== undefined) out.proxy = parameters.proxy;
  if (parameters.timeout !== undefined) out.timeout = parameters.timeout;
  if (parameters.insecure !== undefined) out.insecure = parameters.insecure;
  if (parameters.follow_redirects !== undefined) out.followRedirects = parameters.follow_redirects;
  if (parameters.accept_status !== undefined) out.acceptStatus = [...new Set(parameters.accept_status)];
  return out;
}

/**
 * The compact request of the `http` and `digest` presets (maps instead of lists), normalised.
 *
 * @example
 * presetRequest({ url: 'https://x/login', method: 'POST', headers: { Accept: 'application/json' } });
 */
export function presetRequest(request: HttpRequestPreset): RequestTemplate {
  const out: RequestTemplate = {
    url: request.url,
    method: request.method,
    headers: mapToList(request.headers),
    cookies: mapToList(request.cookies),
    query: mapToList(request.queryParameters ?? request.query_parameters),
  };
  if (request.body !== undefined) out.body = request.body;
  return out;
}

/**
 * Extractions with their config paths (`origin` = `[...listPath, index]`).
 *
 * @example
 * planExtractions([{ name: 't', location: 'body', key: 'token' }], ['procedures', 0, 'operations', 0, 'extractions']);
 */
export function planExtractions(list: readonly TokenExtraction[] | undefined, listPath: ConfigPath): PlanExtraction[] {
  return (list ?? []).map((extraction, index) => {
    const out: PlanExtraction = { name: extraction.name, location: extraction.location, key: extraction.key ?? '', origin: [...listPath, index] };
    if (extraction.regex !== undefined) out.regex = extraction.regex;
    const storageOrigin = urlOrigin(extraction.origin);
    if (storageOrigin !== undefined) out.storageOrigin = storageOrigin;
    return out;
  });
}

/**
 * Injections with their config paths (`origin` = `[...listPath, index]`).
 *
 * @example
 * planInjections([{ location: 'header', key: 'Authorization', prefix: 'Bearer', variable: 't' }], ['procedures', 0, 'injections']);
 */
export function planInjections(list: readonly TokenInjection[] | undefined, listPath: ConfigPath): PlanInjection[] {
  return (list ?? []).map((injection, index) => {
    const out: PlanInjection = { location: injection.location, key: injection.key, origin: [...listPath, index] };
    if (injection.prefix !== undefined) out.prefix = injection.prefix;
    if (injection.variable !== undefined) out.variable = injection.variable;
    const storageOrigin = urlOrigin(injection.origin);
    if (storageOrigin !== undefined) out.storageOrigin = storageOrigin;
    return out;
  });
}

/** `https://a.test/x` -> `https://a.test`, as browsers key storage; the config check refuses what is no http(s) URL. */
function urlOrigin(text: string | undefined): string | undefined {
  if (text === undefined || !URL.canParse(text)) return undefined;
  return new URL(text).origin;
}
