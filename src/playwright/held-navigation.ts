import type { APIResponse, Request, Route } from 'playwright-core';
import { signedOutAnswer, type Reauthenticate } from './authed-request.js';
import type { PageRenewal } from './page-reauth.js';
import { fetchOptions, type RoutedRequest } from './routed-fetch.js';

/** What {@link holdNavigation} needs of the context's session routing. */
export interface NavigationHold {
  reauth: Reauthenticate;
  renewal: PageRenewal;
  /**
   * The request as routing sends it with the context's current session (adopted first); throws
   * when the user's sign-in failed, once: undefined after that.
   */
  routed(): Promise<RoutedRequest | undefined>;
}

/**
 * Whether routing holds `request` until its answer is read: a GET that loads a frame's document
 * (`goto`, `reload`, a link clicked). Others go to the browser as they are.
 *
 * @example
 * if (holdsNavigation(request)) await holdNavigation(route, request, routed, hold);
 */
export function holdsNavigation(request: Request): boolean {
  return request.isNavigationRequest() && request.method() === 'GET';
}

/**
 * Sends a navigation for the page and reads its answer before the page does, so that a signed-out
 * answer (a redirect to the login page, a status `reauth` names, or a body its `on_body` matches) never reaches it: the user is
 * signed in again (the renewal the page's other answers share: once per test, once across
 * workers), the context takes the new session, and the same URL is asked for again with it. The
 * page gets that answer, so the navigation the test awaits (`goto`, `reload`, a click) ends at the
 * page it asked for, and `goto` returns that page's response. When no new session comes (the
 * sign-in failed, a denial), the page gets the answer as it came (the login page) at once, and a
 * failed sign-in's error is thrown (Playwright fails the test with it).
 *
 * Only the navigation's first request is held (routing sees no redirect after it): an app that
 * redirects elsewhere first and then to its login page is loaded again after the login page, as
 * other requests' pages are ({@link watchPageSessions}).
 *
 * @example
 * await holdNavigation(route, request, await routed(), { reauth, renewal, routed });
 */
export async function holdNavigation(route: Route, request: Request, first: RoutedRequest, hold: NavigationHold): Promise<void> {
  let answer: APIResponse;
  try {
    answer = await route.fetch(fetchOptions(first));
  } catch {
    // Sent by the browser instead: its own error (a refused connection, a certificate) is the test's to see.
    return route.fallback(first.overrides);
  }
  hold.renewal.handled(request);
  const trigger = await signedOutAnswer(hold.reauth, answer, request.url());
  if (!trigger) return route.fulfill({ response: answer });
  const signedOut = { method: 'GET', url: request.url(), trigger, retried: true };
  if (!(await hold.renewal.renew(first.session, signedOut))) {
    // The page ends where the app sent it; a failed sign-in is the test's error (routed() throws it).
    const failed = await hold.routed().then(() => undefined, (error: unknown) => ({ error }));
    await route.fulfill({ response: answer });
    if (failed) throw failed.error;
    return;
  }
  const again = await hold.routed();
  if (!again) return route.fulfill({ response: answer });
  let retried: APIResponse;
  try {
    retried = await route.fetch(fetchOptions(again));
  } catch {
    return route.fallback(again.overrides);
  }
  await answer.dispose();
  const refused = await signedOutAnswer(hold.reauth, retried, request.url());
  // Refused again with a new session: reauth learns it is a denial, and the page sees the answer.
  if (refused) await hold.reauth.renew(again.session, { method: 'GET', url: request.url(), trigger: refused, retried: false });
  return route.fulfill({ response: retried });
}
