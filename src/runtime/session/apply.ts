import type { PlanCredentials, PlanUser } from '../../compile/index.js';
import type { HeaderPair } from '../http/observation.js';
import type { Session, SignInResult } from './session.js';
import { applyBodyRules, type OutgoingBody } from './apply-body.js';
import { cookiesForUrl } from './cookie-match.js';
import { combineHeaders, hasHeader, sessionHeaders } from './headers.js';
import { cloneJson } from '../../core/json-path.js';
import { appendQuery } from './merge.js';
import { basicAuthorization } from '../../core/basic-auth.js';

/**
 * A request about to be sent for a signed-in user: what {@link applySession} reads and returns.
 * `Body` is text unless the sender serialises the body itself (see {@link OutgoingBody}).
 */
export interface OutgoingRequest<Body extends OutgoingBody = string> {
  method: string;
  /** Absolute URL (cookies with a domain are matched against it). */
  url: string;
  headers: HeaderPair[];
  /** The body; absent = no body. */
  body?: Body;
}

/** How the sender carries cookies: see {@link applySession}. */
export interface ApplyOptions {
  /**
   * The sender's own cookie jar holds the session's cookies (bound to the request's host when they
   * have no domain), so none go in the `Cookie` header: Playwright's senders, whose jar also keeps
   * the cookies the tested app sets. Default false: a bare client (undici, curl, a script).
   */
  cookieJar?: boolean;
}

/**
 * Applies a session to one outgoing request: the ONE place that decides what an authenticated
 * request carries. `authedRequest`, browser routing and scripts reading `multiauth login --json`
 * all send what it returns. Returns a new request; `request` is not modified.
 *
 * - headers: each session header is added unless the request already has a header of that name
 *   (ignoring case): the request wins, as with Playwright's `extraHTTPHeaders`. Then every name
 *   is sent as one field, several values joined (`combineHeaders` says why): all senders agree.
 * - cookies: unless the sender's own jar holds them (`options.cookieJar`), the session cookies that
 *   match the URL (domain, path, secure; cookies without a domain always) are added to the `Cookie`
 *   header, values as stored (already in wire form); a cookie the request already sends under the
 *   same name wins.
 * - query: session parameters are appended after any query the URL has, URL-encoded once; a name
 *   the URL already has wins.
 * - body: only when the request has a non-empty body: `merge` by the spec's body rules, then `set`
 *   paths written into JSON object and form bodies (kind from `Content-Type`, else sniffed; a
 *   structured body by its form). A changed text body drops any `Content-Length` header, for the
 *   sender to recompute.
 * - HTTP Basic: the session carries it as an `Authorization` header when the user's credentials
 *   ask for it (see {@link newSession}).
 *
 * Digest answers (`session.digest`) need the server's challenge and are the transport's concern.
 *
 * @example
 * applySession(session, { method: 'GET', url: 'https://api.test/me?x=1', headers: [] });
 * // { method: 'GET', url: 'https://api.test/me?x=1&tenant=acme', headers: [['Authorization', 'Bearer abc']] }
 */
export function applySession<Body extends OutgoingBody = string>(
  session: Session,
  request: OutgoingRequest<Body>,
  options: ApplyOptions = {},
): OutgoingRequest<Body> {
  const added = sessionHeaders(session).filter(([name]) => !hasHeader(request.headers, name));
  const cookies = options.cookieJar ? [] : cookiesForUrl(session.cookies, request.url);
  let headers = combineHeaders([...request.headers, ...added]);
  if (cookies.length) headers = withCookies(headers, cookies.map((c) => `${c.name}=${c.value}`));

  const present = urlQueryNames(request.url);
  const query = Object.entries(session.query)
    .filter(([name]) => !present.has(name))
    .map(([name, values]) => ({ name, values }));
  const out: OutgoingRequest<Body> = { method: request.method, url: appendQuery(request.url, query), headers };

  const body = request.body;
  if (body === undefined) return out;
  out.body = body === '' ? body : applyBodyRules(body, headers, session.body);
  if (typeof body === 'string' && out.body !== body) out.headers = headers.filter(([n]) => n.toLowerCase() !== 'content-length');
  return out;
}

/**
 * Whether applying the session changes requests: headers, query parameters, body rules, or
 * cookies, unless the sender's jar holds them (`cookieJar`). Browser routing costs a round trip per
 * request, so it is installed only then.
 *
 * @example
 * changesRequests(session, true); // false for a session of cookies only
 */
export function changesRequests(session: Session, cookieJar: boolean): boolean {
  if (Object.keys(session.headers).length > 0 || Object.keys(session.query).length > 0) return true;
  if (session.body.merge !== undefined || Object.keys(session.body.set).length > 0) return true;
  return !cookieJar && session.cookies.length > 0;
}

/** Cookie pairs added to the request's own `Cookie` field, or as a new one; the request's names win. */
function withCookies(headers: HeaderPair[], pairs: string[]): HeaderPair[] {
  const at = headers.findIndex(([n]) => n.toLowerCase() === 'cookie');
  if (at === -1) return [...headers, ['Cookie', pairs.join('; ')]];
  const [name, own] = headers[at] as HeaderPair;
  const sent = new Set(own.split(';').map((pair) => pair.split('=', 1)[0]?.trim() ?? ''));
  const fresh = pairs.filter((pair) => !sent.has(pair.split('=', 1)[0] as string));
  if (fresh.length === 0) return headers;
  const out = [...headers];
  out[at] = [name, own.trim() === '' ? fresh.join('; ') : `${own}; ${fresh.join('; ')}`];
  return out;
}

function urlQueryNames(url: string): Set<string> {
  const beforeHash = url.split('#', 1)[0] as string;
  const at = beforeHash.indexOf('?');
  return new Set(at === -1 ? [] : new URLSearchParams(beforeHash.slice(at + 1)).keys());
}

/**
 * A session holding a user's static credentials only (the whole session of `basic` and `headers`
 * users): headers (same name ignoring case: values appended), cookies (values URL-encoded once
 * into their wire form), query parameters, the credentials body as `body.merge`, and
 * `Authorization: Basic` when `credentials.basic` is `requests` and both `username` and `password`
 * are set and no `Authorization` header is given ({@link withStaticCredentials} of an empty session).
 *
 * @example
 * newSession(user, user.credentials, Date.now()).headers; // { Authorization: ['Basic YWxpY2U6c2VjcmV0'] }
 */
export function newSession(user: PlanUser, credentials: PlanCredentials, now: number): Session {
  return withStaticCredentials(emptySession(user.name, now), credentials);
}

/**
 * A session with nothing in it yet, made at `now`: where a procedure starts (what it produces is
 * added) and the whole {@link SignInResult} of a user without a procedure.
 *
 * @example
 * emptySession('alice', Date.now()).headers; // {}
 */
export function emptySession(user: string, now: number): Session {
  return { user, headers: {}, cookies: [], query: {}, body: { set: {} }, origins: [], createdAt: now, expiresAt: null, variables: {}, origin: 'signed-in' };
}

/**
 * `produced` (what a sign-in produced, see {@link SignInResult}) with the user's static
 * `credentials` folded in: a session requests can be sent with. Whatever the sign-in produced wins
 * over a static value of the same name (headers ignoring case, cookies and query parameters by
 * name), as an injection replaces it; the credentials body becomes `body.merge`; HTTP Basic is
 * added by the `requests` rule when no `Authorization` is set; a digest challenge gets the
 * username and password back. `produced` is not modified; the session shares with it every part
 * the credentials add nothing to (sessions are not changed after they are made: a refresh makes a
 * new one).
 *
 * @example
 * withStaticCredentials(fromCache, user.credentials).headers; // { 'X-Tenant': ['acme'], Authorization: ['Bearer …'] }
 */
export function withStaticCredentials(produced: SignInResult, credentials: PlanCredentials): Session {
  const { headers: staticHeaders, cookies: staticCookies, query: staticQuery, body, basic, storage, username, password } = credentials;
  const basicHeader = basic === 'requests' && username !== undefined && password !== undefined;
  const { digest, ...session }: SignInResult = produced;
  // Every part is built only when the credentials add to it: most users add nothing, and a sign-in
  // that allocates less costs less (docs/performance.md).
  if (staticHeaders.length || basicHeader) session.headers = staticHeadersUnder(produced.headers, staticHeaders, basicHeader ? basicAuthorization(username as string, password as string) : undefined);
  if (staticCookies.length) {
    const producedCookies = new Set(produced.cookies.map((c) => c.name));
    const cookies = staticCookies
      .filter(({ name }) => !producedCookies.has(name))
      .flatMap(({ name, values, ...attributes }) => values.map((v) => ({ name, value: encodeURIComponent(v), ...attributes })));
    session.cookies = [...cookies, ...produced.cookies];
  }
  if (staticQuery.length) {
    // Maps, then fromEntries: a name such as __proto__ (from a config or a cache file) stays a property.
    const query = new Map<string, string[]>();
    for (const { name, values } of staticQuery) query.set(name, [...(query.get(name) ?? []), ...values]);
    for (const [name, values] of Object.entries(produced.query)) query.set(name, values);
    session.query = Object.fromEntries(query);
  }
  if (body !== undefined) session.body = { merge: cloneJson(body), set: produced.body.set };
  const complete: Session = storage ? { ...session, scopeStorage: structuredClone(storage) } : session;
  if (digest) {
    if (username === undefined || password === undefined) {
      throw new Error(`a digest session of user "${produced.user}" without a username and password to answer with`);
    }
    complete.digest = { ...digest, username, password };
  }
  return complete;
}

/**
 * Static headers (same name ignoring case: values appended), then Basic unless one of them is an
 * `Authorization`, each dropped where the sign-in produced a header of its name, then the
 * produced headers.
 */
function staticHeadersUnder(produced: Record<string, string[]>, staticHeaders: PlanCredentials['headers'], basic: string | undefined): Record<string, string[]> {
  // Maps, then fromEntries: a name such as __proto__ (from a config or a cache file) stays a property.
  const headers = new Map<string, string[]>();
  for (const { name, values } of staticHeaders) {
    const existing = [...headers.keys()].find((n) => n.toLowerCase() === name.toLowerCase());
    if (existing) headers.get(existing)?.push(...values);
    else headers.set(name, [...values]);
  }
  if (basic !== undefined && ![...headers.keys()].some((n) => n.toLowerCase() === 'authorization')) headers.set('Authorization', [basic]);
  const producedNames = new Set(Object.keys(produced).map((n) => n.toLowerCase()));
  for (const name of [...headers.keys()]) if (producedNames.has(name.toLowerCase())) headers.delete(name);
  for (const [name, values] of Object.entries(produced)) headers.set(name, values);
  return Object.fromEntries(headers);
}


/**
 * Every value of a session that must be masked before anything is printed (feed them to a
 * `Redactor`): header values (and, after an auth scheme such as `Bearer` or `Basic`, the credential alone
 * and a Basic password), cookie values (as stored and decoded), query values, body values (`set` and every
 * string inside `merge`), variables, localStorage, sessionStorage and IndexedDB values and the digest password. Empty values and
 * the user's own name (printed everywhere to say whose session it is) are left out; a value may
 * be listed more than once.
 *
 * @example
 * new Redactor().add(...sessionSecrets(session));
 */
export function sessionSecrets(session: SignInResult): string[] {
  // An array, not a Set: hashing every token twice (here and in the redactor) costs more than the
  // repeats, which the redactor sorts out when it first prints.
  const out: string[] = [];
  const add = (value: string) => {
    if (value !== '' && value !== session.user) out.push(value);
  };
  for (const values of Object.values(session.headers)) {
    for (const value of values) {
      add(value);
      addCredentialParts(add, value);
    }
  }
  for (const cookie of session.cookies) {
    add(cookie.value);
    add(safeDecode(cookie.value));
  }
  for (const values of Object.values(session.query)) values.forEach(add);
  Object.values(session.body.set).forEach(add);
  collectStrings(session.body.merge, add);
  Object.values(session.variables).forEach(add);
  if (session.passkey?.privateKey !== undefined) add(session.passkey.privateKey);
  if ('scopeStorage' in session && session.scopeStorage) {
    for (const item of [...session.scopeStorage.localStorage, ...session.scopeStorage.sessionStorage]) add(item.value);
  }
  for (const origin of session.origins) {
    origin.localStorage.forEach((item) => add(item.value));
    origin.sessionStorage?.forEach((item) => add(item.value));
    collectStrings(origin.indexedDB, add);
  }
  if (session.digest && 'password' in session.digest && typeof session.digest.password === 'string') add(session.digest.password);
  return out;
}

const AUTH_SCHEME = /^(Bearer|Basic|Token|JWT|Key|ApiKey|Api-Key|Bot|Negotiate)\s+(.+)$/i;

function addCredentialParts(add: (value: string) => void, value: string): void {
  const match = AUTH_SCHEME.exec(value);
  if (!match) return;
  const [, scheme, credential] = match as unknown as [string, string, string];
  add(credential);
  if (scheme.toLowerCase() === 'basic') {
    const decoded = Buffer.from(credential, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon !== -1) add(decoded.slice(colon + 1));
  }
}

/** Strings a walk of one value visits at most: a page's IndexedDB is data nobody here wrote. */
const MAX_WALKED = 200_000;

function collectStrings(value: unknown, add: (value: string) => void): void {
  // Iterative: a deeply nested value (a body, a page's IndexedDB) must not overflow the stack.
  const stack: unknown[] = [value];
  for (let seen = 0; stack.length && seen < MAX_WALKED; seen++) {
    const item = stack.pop();
    if (typeof item === 'string') add(item);
    else if (Array.isArray(item)) stack.push(...item.slice(0, MAX_WALKED));
    else if (item !== null && typeof item === 'object') stack.push(...Object.values(item).slice(0, MAX_WALKED));
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
