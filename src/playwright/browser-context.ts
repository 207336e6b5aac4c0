import type { BrowserContext, Route, Request } from 'playwright-core';
import type { Session } from '../runtime/index.js';
import { applySession, changesRequests } from '../runtime/index.js';
import { isDomainless } from '../runtime/index.js';
import { toStorageState } from './storage-state.js';
import { bindDomainlessCookies } from './cookie-binding.js';
import { headerPairs, playwrightHeaders } from './headers.js';
import type { LiveSession } from './authed-request.js';
import type { ResolvedScope } from './scope.js';

/**
 * Makes a browser context carry the user's current session on every request inside the scope,
 * and nothing outside it: `applySession` decides what each request carries, and routing hands it
 * to the browser. Cookies and localStorage come in through `storageState` (cookies without a
 * domain bound to the scope's hosts; with none, to each host as requests go there), and are
 * renewed in the context when the session is refreshed.
 *
 * Routing costs a round trip per request, so it is installed only when the session needs it.
 *
 * @example
 * await routeSession(context, live, initial, resolveScope(plan.scope, baseURL));
 */
export async function routeSession(context: BrowserContext, live: LiveSession, initial: Session, scope: ResolvedScope): Promise<void> {
  let current = initial;
  const latest = async (): Promise<Session> => {
    const session = await live();
    if (session !== current) {
      current = session;
      await context.addCookies(toStorageState(session, scope.hosts).cookies);
    }
    return session;
  };
  // Cookies travel in the context's jar: storageState binds injected ones to the scope's hosts;
  // with no hosts known, they are bound to each host as requests go there.
  const bind = bindDomainlessCookies(context, scope.hosts);
  const unbound = scope.hosts.length === 0 && initial.cookies.some(isDomainless);
  if (!changesRequests(initial, true) && !unbound) return;
  const handler = async (route: Route, request: Request): Promise<void> => {
    const session = await latest();
    await bind(session, request.url());
    const postData = request.postData() ?? undefined;
    const out = applySession(session, { method: request.method(), url: request.url(), headers: headerPairs(await request.allHeaders()), body: postData }, { cookieJar: true });
    await route.fallback({
      url: out.url === request.url() ? undefined : out.url,
      headers: playwrightHeaders(out.headers),
      postData: typeof out.body === 'string' && out.body !== postData ? out.body : undefined,
    });
  };
  for (const glob of scope.globs) await context.route(glob, handler);
}
