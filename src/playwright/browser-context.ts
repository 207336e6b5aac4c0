import type { BrowserContext, Route, Request } from 'playwright-core';
import type { ResolvedRequest, Session } from '../runtime/index.js';
import { applySession, changesRequests } from '../runtime/index.js';
import { isDomainless } from '../runtime/index.js';
import { toStorageState } from './storage-state.js';
import { bindDomainlessCookies } from './cookie-binding.js';
import { addedHeaders, headerPairs, playwrightHeaders } from './headers.js';
import type { LiveSession, Reauthenticate } from './authed-request.js';
import type { ResolvedScope } from './scope.js';
import { firstOfChain, watchPageSessions, type PageRenewal } from './page-reauth.js';
import { holdNavigation, holdsNavigation } from './held-navigation.js';
import { answerFromNode, sentFromNode, type RoutedRequest } from './routed-fetch.js';

/** The longest redirect chain walked back to the request a route handler saw (browsers stop at 20). */
const MAX_REDIRECTS = 20;

/** A navigation Playwright sent to another origin with the headers the session gave it. */
export interface LeftOrigin {
  /** The URL the navigation asked for (inside the scope). */
  from: string;
  /** The URL of another origin a redirect took it to. */
  to: string;
  /** The names (lower-cased) of the headers the session added. */
  headers: string[];
}

/**
 * Makes a browser context carry the user's current session on every request inside the scope,
 * and nothing outside it: `applySession` decides what each request carries, and routing hands it
 * to the browser. Cookies and localStorage come in through `storageState` (cookies without a
 * domain bound to the scope's hosts; with none, to each host as requests go there), and are
 * renewed in the context when the session is refreshed.
 *
 * With `reauth`, a "signed out" answer (a 401, or what the user's `reauth` says) to a request
 * that carried the session signs the user in again ({@link watchPageSessions}); when the answer
 * may be a redirect to the login page, a page's navigations are held until their answer is read,
 * so that they end signed in at the page asked for ({@link holdNavigation}).
 *
 * A request the session put a header or a body into is sent from Node and answered from there
 * ({@link answerFromNode}): Playwright would carry a route's headers onto every redirect, to any
 * host, and the page's next request after a redirect is routed afresh.
 *
 * A navigation is left to the browser, whose redirects Playwright does not route: one redirected
 * to another origin with a header of the session's is told to `leftOrigin`.
 *
 * Routing costs a round trip per request, so it is installed only when the session needs it.
 *
 * @example
 * await routeSession(context, live, initial, resolveScope(plan.scope, baseURL), reauth, (left) => warn(left));
 */
export async function routeSession(context: BrowserContext, live: LiveSession, initial: Session, scope: ResolvedScope, reauth?: Reauthenticate, leftOrigin?: (left: LeftOrigin) => void): Promise<void> {
  let current = initial;
  const adopt = async (): Promise<Session> => {
    const session = await live();
    if (session !== current) {
      current = session;
      await context.addCookies(toStorageState(session, scope.hosts).cookies);
    }
    return session;
  };
  // What each routed request carried: a signed-out answer to it is a verdict on that session.
  const sent = new WeakMap<Request, Session>();
  // Digest users are answered by the browser itself (httpCredentials): a 401 is its challenge.
  const renewal: PageRenewal | undefined = reauth && !initial.digest
    ? watchPageSessions(context, { carried: (request) => carried(request, sent, current), adopt: async () => void (await adopt()) }, reauth)
    : undefined;
  // Cookies travel in the context's jar: storageState binds injected ones to the scope's hosts;
  // with no hosts known, they are bound to each host as requests go there.
  const bind = bindDomainlessCookies(context, scope.hosts);
  const unbound = scope.hosts.length === 0 && initial.cookies.some(isDomainless);
  const hold = renewal && reauth?.holdsNavigations ? { reauth, renewal } : undefined;
  if (!changesRequests(initial, true) && !unbound && !hold) return;
  // What a request carries with `session`: the page's own, or a redirect's next hop sent from Node.
  const applyTo = async (session: Session, request: ResolvedRequest): Promise<RoutedRequest> => {
    await bind(session, request.url);
    const out = applySession(session, request, { cookieJar: true });
    const url = out.url === request.url ? undefined : out.url;
    const changed = typeof out.body === 'string' && out.body !== request.body ? out.body : undefined;
    const added = addedHeaders(request.headers, out.headers);
    return { session, overrides: { ...(url === undefined ? {} : { url }), headers: playwrightHeaders(out.headers) }, added, ...(changed === undefined ? {} : { postData: changed }) };
  };
  const routed = async (request: Request): Promise<RoutedRequest> => {
    const session = await adopt();
    sent.set(request, session);
    const body = request.postData() ?? undefined;
    return applyTo(session, { method: request.method(), url: request.url(), headers: headerPairs(await request.allHeaders()), ...(body === undefined ? {} : { body }) });
  };
  // Navigations sent with the session's headers, until a redirect of theirs leaves the origin.
  const navigations = new WeakMap<Request, string[]>();
  let watching = false;
  const watchNavigation = (request: Request, headers: string[]): void => {
    navigations.set(request, headers);
    if (watching || !leftOrigin) return;
    watching = true;
    const report = leftOrigin;
    context.on('request', (hop) => {
      if (!hop.isNavigationRequest() || !hop.redirectedFrom()) return;
      const first = firstOfChain(hop);
      const added = navigations.get(first);
      if (!added || new URL(hop.url()).origin === new URL(first.url()).origin) return;
      navigations.delete(first);
      report({ from: first.url(), to: hop.url(), headers: added });
    });
  };
  let failed = false;
  // No session to send (its sign-in failed) is said once, by the first request that needed it
  // (thrown in a route handler, it fails the test); undefined for the page's later requests.
  const routedOnce = async (request: Request): Promise<RoutedRequest | undefined> => {
    try {
      return await routed(request);
    } catch (error) {
      if (failed) return undefined;
      failed = true;
      throw error;
    }
  };
  const handler = async (route: Route, request: Request): Promise<void> => {
    await renewal?.settled();
    const first = await routedOnce(request);
    // Sent as the browser made it: the test has the error already.
    if (!first) return route.fallback();
    if (hold && holdsNavigation(request)) return holdNavigation(route, request, first, { ...hold, routed: () => routedOnce(request) });
    if (sentFromNode(request, first)) return answerFromNode(context, route, request, first, async (hop) => applyTo(await adopt(), hop));
    if (leftOrigin && first.added.length > 0 && request.isNavigationRequest()) watchNavigation(request, first.added);
    await route.fallback({ ...first.overrides, postData: first.postData });
  };
  for (const glob of scope.globs) await context.route(glob, handler);
}

/**
 * The session a request carried: the one routing gave it (routing sees the first request of a
 * redirect chain only), else the current one when the request sent one of its cookies by name
 * (the app may have rotated the value; the name still says whose session it is).
 */
async function carried(request: Request, sent: WeakMap<Request, Session>, current: Session): Promise<Session | undefined> {
  let first: Request | null = request;
  for (let hops = 0; first && hops <= MAX_REDIRECTS; hops++, first = first.redirectedFrom()) {
    const session = sent.get(first);
    if (session) return session;
  }
  if (current.cookies.length === 0) return undefined;
  const header = (await request.headerValue('cookie')) ?? '';
  const names = new Set(header.split(';').map((pair) => pair.split('=', 1)[0]!.trim()));
  return current.cookies.some((cookie) => names.has(cookie.name)) ? current : undefined;
}
