import type { BrowserContext, Route, Request } from 'playwright-core';
import type { Session } from '../runtime/session.js';
import { applySession } from '../runtime/apply.js';
import { domainlessCookies } from './storage-state.js';
import { needsRequestRewrite } from './request-injection.js';
import type { ResolvedScope } from './scope.js';

/**
 * Makes a browser context send the session's headers, query parameters, body injections (and
 * domain-less cookies when no host is known) on every request inside the scope, and nothing
 * outside it. Cookies with a domain and localStorage come in through `storageState` instead.
 *
 * Routing costs a round trip per request, so it is installed only when the session needs it.
 *
 * @example
 * await routeSession(context, session, resolveScope(plan.scope, baseURL));
 */
export async function routeSession(context: BrowserContext, session: Session, scope: ResolvedScope): Promise<void> {
  const cookieFree = scope.hosts.length > 0 ? { ...session, cookies: session.cookies.filter((c) => c.domain) } : session;
  if (!needsRequestRewrite(session) && !(scope.hosts.length === 0 && domainlessCookies(session).length > 0)) return;
  const handler = async (route: Route, request: Request): Promise<void> => {
    const headers = Object.entries(await request.allHeaders());
    const out = applySession(cookieFree, {
      method: request.method(),
      url: request.url(),
      headers,
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
