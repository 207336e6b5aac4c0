import type { BrowserContext, Frame, Request, Response } from 'playwright-core';
import type { Session } from '../runtime/index.js';
import { IDEMPOTENT, type Reauthenticate } from './authed-request.js';

/** What {@link watchPageSessions} needs of the context's session routing. */
export interface PageSessionState {
  /**
   * The session `request` carried, or undefined when it carried none of it (a request outside
   * the scope, or to a host the session's cookies do not go to): only such a 401 is a verdict on
   * the session.
   */
  carried(request: Request): Promise<Session | undefined>;
  /** Makes the context send the user's current session from now on (cookies in its jar). */
  adopt(): Promise<void>;
}

/** Lets requests wait for a renewal under way, so they carry the new session. */
export interface PageRenewal {
  /** Resolves when no renewal is under way (never rejects). */
  settled(): Promise<void>;
}

/**
 * Signs the user in again when a signed-in page's request that carried the session gets HTTP 401
 * (never 403: authorization tests rely on it), as `authedRequest` does: `reauth` decides (once per
 * test, once across workers). The context then carries the new session; requests sent meanwhile
 * wait for it. A page request cannot be sent again unseen, as `authedRequest` does, without
 * taking every page request out of the browser's network stack (streams, caching); so a frame
 * whose navigation got the 401 (GET or another idempotent method) is loaded again, unless the test
 * has navigated it elsewhere since. Other requests (fetch, XHR) get their 401, and the next one
 * carries the new session.
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

  context.on('request', (request) => {
    if (request.isNavigationRequest()) latestNavigation.set(request.frame(), request);
  });

  const onResponse = async (response: Response): Promise<void> => {
    if (response.status() !== 401) return;
    const request = response.request();
    // Registered before any await: the 401 page commits soon after its headers arrive.
    const loaded = request.isNavigationRequest() ? documentLoaded(request.frame()) : undefined;
    const dead = await state.carried(request);
    // The new session got a 401 too: that one is the test's to see (no reload loop).
    if (!dead || (renewal && dead !== renewedFrom)) return;
    renewedFrom ??= dead;
    renewal ??= (async () => {
      try {
        const renewed = await reauth(dead, { method: request.method(), url: response.url() });
        if (renewed) await state.adopt();
        return renewed;
      } catch {
        // The failed sign-in is remembered for the run (and annotated by the next use of the
        // user); the page keeps its 401 and the test sees it.
        return false;
      }
    })();
    if (!(await renewal) || !loaded || !IDEMPOTENT.has(request.method())) return;
    // Loading again before the test's own navigation has finished would cut it short.
    await loaded;
    const frame = request.frame();
    if (latestNavigation.get(frame) !== request || frame.isDetached()) return;
    await frame.goto(response.url());
  };

  context.on('response', (response) => {
    // A page closed, or a navigation the test started meanwhile, ends a reload: nothing to report.
    onResponse(response).catch(() => undefined);
  });

  return {
    settled: async () => {
      if (renewal) await renewal;
    },
  };
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
