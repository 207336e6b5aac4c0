import type { BrowserContext, Route, Request } from 'playwright-core';
import type { Session } from '../runtime/session/session.js';
import { applySession } from '../runtime/session/apply.js';
import { domainlessCookies, toStorageState } from './storage-state.js';
import { needsRequestRewrite } from './request-injection.js';
import type { LiveSession } from './authed-request.js';
import type { ResolvedScope } from './scope.js';

/**
 * Makes a browser context carry the user's current session on every request inside the scope,
 * and nothing outside it: headers, query parameters, body injections (and domain-less cookies when
 * no host is known) through routing; cookies with a domain and localStorage come in through
 * `storageState`, and are renewed in the context when the session is refreshed.
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
  const headerOnly = scope.hosts.length > 0;
  if (!needsRequestRewrite(initial) && !(!headerOnly && domainlessCookies(initial).length > 0)) return;
  const handler = async (route: Route, request: Request): Promise<void> => {
    const session = await latest();
    // Cookies reach the page through its jar when a host is known; the Cookie header otherwise.
    const rules = headerOnly ? { ...session, cookies: [] } : { ...session, cookies: domainlessCookies(session) };
    const out = applySession(rules, {
      method: request.method(),
      url: request.url(),
      headers: Object.entries(await request.allHeaders()),
      body: request.postData() ?? undefined,
    });
    await route.fallback({
      url: out.url === request.url() ? undefined : out.url,
      headers: Object.fromEntries(out.headers.map(([name, value]) => [name.toLowerCase(), value])),
      postData: out.body !== undefined && out.body !== request.postData() ? out.body : undefined,
    });
  };
  for (const glob of scope.globs) await context.route(glob, handler);
}
