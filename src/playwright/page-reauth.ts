import type { BrowserContext, Frame, Request, Response } from 'playwright-core';
import type { Session } from '../runtime/index.js';
import { IDEMPOTENT, signedOutByText, type Reauthenticate, type SignedOutRequest } from './authed-request.js';
import type { SignedOutTrigger } from './signed-out.js';

/** What {@link watchPageSessions} needs of the context's session routing. */
export interface PageSessionState {
  /**
   * The session `request` carried, or undefined when it carried none of it (a request outside
   * the scope, or to a host the session's cookies do not go to): only such an answer is a verdict
   * on the session.
   */
  carried(request: Request): Promise<Session | undefined>;
  /** Makes the context send the user's current session from now on (cookies in its jar). */
  adopt(): Promise<void>;
}

/** Lets requests wait for a renewal under way, so they carry the new session. */
export interface PageRenewal {
  /** Resolves when no renewal is under way (never rejects). */
  settled(): Promise<void>;
  /**
   * The renewal the page's other answers share, for an answer read before the page saw it (a held
   * navigation): true when the context carries a new session now. Never rejects.
   */
  renew(dead: Session, signedOut: SignedOutRequest): Promise<boolean>;
  /** Leaves `request`'s answer to the caller (a held navigation): the watcher neither renews nor reloads for it. */
  handled(request: Request): void;
}

/**
 * Signs the user in again when a signed-in page's request that carried the session gets an answer
 * that says "signed out" (`reauth.signedOut`: HTTP 401 by default; a 403, a redirect to the
 * login page, or a document's or API call's text that `on_body` matches, when the config says so), as `authedRequest` does: `reauth` decides (once per test,
 * once across workers). The context then carries the new session; requests sent meanwhile wait
 * for it. A page request cannot be sent again unseen, as `authedRequest` does, without taking every
 * page request out of the browser's network stack (streams, caching); so a frame whose navigation
 * got the answer (GET or another idempotent method) is loaded again, at the URL it asked for when
 * it was redirected to the login page, unless the test has navigated it elsewhere since. Other
 * requests (fetch, XHR) get their answer, and the next one carries the new session. A signed-out
 * answer to a request that carried the new session goes to `reauth` too (it may be a denial),
 * and to the test.
 *
 * @example
 * const renewal = watchPageSessions(context, state, reauth);
 * // in a route handler: await renewal.settled(); then apply the current session
 */
export function watchPageSessions(context: BrowserContext, state: PageSessionState, reauth: Reauthenticate): PageRenewal {
  let renewal: Promise<boolean> | undefined;
  let renewedFrom: Session | undefined;
  // The latest navigation of each frame: a reload must not undo one the test started since.
  const latestNavigation = new WeakMap<Frame, Request>();
  const reloaded = new WeakSet<Request>();
  const handled = new WeakSet<Request>();

  context.on('request', (request) => {
    if (request.isNavigationRequest()) latestNavigation.set(request.frame(), request);
  });

  const renew = async (dead: Session, signedOut: SignedOutRequest): Promise<boolean> => {
    // The new session was refused too: that answer is the test's to see (no reload loop), and
    // reauth learns whether it was a denial.
    if (renewal && dead !== renewedFrom) {
      await reauth.renew(dead, signedOut);
      return false;
    }
    renewedFrom ??= dead;
    const current = (renewal ??= (async () => {
      try {
        const renewed = await reauth.renew(dead, signedOut);
        if (renewed) await state.adopt();
        return renewed;
      } catch {
        // The failed sign-in is remembered for the run (and annotated by the next use of the
        // user); the page keeps its answer and the test sees it.
        return false;
      }
    })());
    const renewed = await current;
    // No new session (a denial, a session that passed its check): a later answer may still renew it.
    if (!renewed && renewal === current) {
      renewal = undefined;
      renewedFrom = undefined;
    }
    return renewed;
  };

  const onResponse = async (response: Response): Promise<void> => {
    const request = response.request();
    if (handled.has(request)) return;
    // Location is no security header: the synchronous headers have it, and no await may come
    // before the load is awaited below.
    const location = response.status() >= 300 && response.status() < 400 ? response.headers().location : undefined;
    let trigger = reauth.signedOut({ status: response.status(), url: response.url(), ...(location === undefined ? {} : { location }) });
    // A stylesheet, script or image never says "not logged in": only documents and API calls are read.
    const readBody = !trigger && WORDED.has(request.resourceType()) && reauth.readsBody(response.status(), response.headers());
    if (!trigger && !readBody) return;
    // Registered before any await: the answer's page commits soon after its headers arrive.
    const loaded = request.isNavigationRequest() ? documentLoaded(request.frame()) : undefined;
    // Awaited only when the session was renewed; a closed page must not leave a rejection unseen.
    loaded?.catch(() => undefined);
    const dead = await state.carried(request);
    if (!dead) return;
    trigger ??= await signedOutByText(reauth, response);
    if (!trigger) return;
    const asked = 'redirect' in trigger ? firstOfChain(request) : request;
    const method = asked.method();
    const signedOut = { method, url: 'redirect' in trigger ? asked.url() : response.url(), trigger, retried: loaded !== undefined && IDEMPOTENT.has(method) };
    const renewed = await renew(dead, signedOut);
    if (!renewed || !loaded || !signedOut.retried) return;
    // Loading again before the test's own navigation has finished would cut it short.
    await loaded;
    const frame = request.frame();
    const latest = latestNavigation.get(frame);
    // One load again per navigation: a redirect to a login page that itself answers 401 is two triggers.
    if (!latest || !inChain(latest, request) || frame.isDetached() || reloaded.has(latest)) return;
    reloaded.add(latest);
    await frame.goto(signedOut.url);
  };

  context.on('response', (response) => {
    // A page closed, or a navigation the test started meanwhile, ends a reload: nothing to report.
    onResponse(response).catch(() => undefined);
  });

  return {
    settled: async () => {
      if (renewal) await renewal;
    },
    renew,
    handled: (request) => void handled.add(request),
  };
}

/** The kinds of request whose answers' text `on_body` reads. */
const WORDED: ReadonlySet<string> = new Set(['document', 'fetch', 'xhr']);

/** The longest redirect chain walked (browsers stop at 20). */
const MAX_REDIRECTS = 20;

/**
 * The request the page asked for, before the redirects that led to `request` (at most 20 back).
 *
 * @example
 * firstOfChain(response.request()).url(); // the URL `goto` was given
 */
export function firstOfChain(request: Request): Request {
  let first = request;
  for (let hops = 0; hops < MAX_REDIRECTS; hops++) {
    const previous = first.redirectedFrom();
    if (!previous) break;
    first = previous;
  }
  return first;
}

/** Whether `request` is `latest` or one of the requests that redirected to it. */
function inChain(latest: Request, request: Request): boolean {
  let current: Request | null = latest;
  for (let hops = 0; current && hops <= MAX_REDIRECTS; hops++, current = current.redirectedFrom()) {
    if (current === request) return true;
  }
  return false;
}

/** The longest wait for a 401 page to load before it is loaded again. */
const LOAD_WAIT_MS = 30_000;

/** Resolves when the document `frame` is navigating to has loaded (or the wait is over). */
function documentLoaded(frame: Frame): Promise<void> {
  const page = frame.page();
  const committed = new Promise<void>((resolve) => {
    const timer = setTimeout(done, LOAD_WAIT_MS);
    function done(): void {
      clearTimeout(timer);
      page.off('framenavigated', onNavigated);
      page.off('close', done);
      resolve();
    }
    function onNavigated(navigated: Frame): void {
      if (navigated === frame) done();
    }
    page.on('framenavigated', onNavigated);
    page.once('close', done);
  });
  return committed.then(() => frame.waitForLoadState('load', { timeout: LOAD_WAIT_MS }));
}
