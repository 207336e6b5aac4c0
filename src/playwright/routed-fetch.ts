import type { APIResponse, BrowserContext, Request, Route } from 'playwright-core';
import type { ResolvedRequest, Session } from '../runtime/index.js';
import { redirectedRequest } from '../runtime/index.js';
import { IDEMPOTENT } from './authed-request.js';
import { headerPairs } from './headers.js';

/** A request as routing sends it with a session: what `route.fallback` and `route.fetch` take. */
export interface RoutedRequest {
  /** The session the request carries. */
  session: Session;
  /** The URL and headers it goes with (the URL unchanged when undefined). */
  overrides: { url?: string; headers: Record<string, string> };
  /** The body it goes with, when the session changed it. */
  postData?: string;
  /** The names (lower-cased) of the headers the session added (cookies aside: they travel in the jar). */
  added: string[];
}

/** The session applied to a request the page did not make itself: a redirect's next hop. */
export type ApplyToHop = (hop: ResolvedRequest) => Promise<RoutedRequest>;

/** The most redirects followed from Node before the page gets the last one (browsers stop at 20). */
const MAX_REDIRECTS = 20;

/** How long a request and its redirects may take from Node, all hops together. */
const CHAIN_TIMEOUT_MS = 60_000;

/** Kinds of request whose answers stream: the page reads them as they come. */
const STREAMED: ReadonlySet<string> = new Set(['eventsource', 'media', 'websocket']);

/**
 * Whether routing sends `request` from Node rather than handing it back to the browser: a request
 * of the page's (not a navigation) that the session put a header or a body into: what a redirect
 * would take along. Playwright applies a route's header overrides to every
 * redirect the request takes, `Authorization` included, wherever it goes, and a 307 or 308 sends
 * the body again: an image, `fetch` or XHR sent on by the browser with the user's token and
 * redirected to another host (an avatar service, a CDN, a presigned download URL) would take the
 * token there. Streamed answers (event streams, audio and video) stay with the browser: read
 * whole first, they would reach the page late or never. So do navigations: Playwright routes no
 * redirect of theirs, so their next hop could not get the session.
 *
 * @example
 * if (sentFromNode(request, routed)) await answerFromNode(context, route, request, routed, applyToHop);
 */
export function sentFromNode(request: Request, routed: RoutedRequest): boolean {
  const carries = routed.added.length > 0 || routed.postData !== undefined;
  if (!carries || request.isNavigationRequest() || STREAMED.has(request.resourceType())) return false;
  return !(request.headers()['accept'] ?? '').toLowerCase().includes('text/event-stream');
}

/**
 * Sends a routed request from Node as `routed` says and follows its redirects there, hop by hop:
 * one to the request's own origin goes with the session again (`applyToHop`), the first to another
 * origin is the page's answer, and the browser follows it without the session. The page gets the
 * last answer as the answer to its request. When the first hop cannot be sent (a refused connection, a
 * certificate), an idempotent request is handed to the browser, which meets its own error; any other
 * fails in the page as a network error, as does a later hop, since the request has been sent already.
 *
 * @example
 * await answerFromNode(context, route, request, routed, (hop) => applyTo(session, hop));
 */
export async function answerFromNode(context: BrowserContext, route: Route, request: Request, routed: RoutedRequest, applyToHop: ApplyToHop): Promise<void> {
  const deadline = Date.now() + CHAIN_TIMEOUT_MS;
  const postData = routed.postData;
  let answer: APIResponse;
  try {
    answer = await route.fetch({ ...fetchOptions(routed), ...(postData === undefined ? {} : { postData }), timeout: CHAIN_TIMEOUT_MS });
  } catch {
    if (IDEMPOTENT.has(request.method())) return route.fallback({ ...routed.overrides, postData });
    return route.abort('failed');
  }
  const origin = new URL(request.url()).origin;
  // The page's own request, without the session: each hop gets the session anew for its URL.
  const body = request.postData();
  let sent: ResolvedRequest = { method: request.method(), url: request.url(), headers: headerPairs(request.headers()), ...(body === null ? {} : { body }) };
  for (let hops = 0; hops < MAX_REDIRECTS; hops++) {
    const next = redirectedRequest(sent, answer.status(), answer.headers()['location']);
    if (!next || new URL(next.url).origin !== origin) break;
    const hop = await applyToHop(next);
    try {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error('the redirects took too long');
      const { url = next.url, ...options } = fetchOptions(hop);
      answer = await context.request.fetch(url, {
        ...options,
        method: next.method,
        // A body kept by a 307 or 308 is the page's own bytes, or the session's change of them.
        ...(next.body === undefined ? {} : { data: hop.postData ?? request.postDataBuffer() ?? '' }),
        timeout: remaining,
      });
    } catch {
      return route.abort('failed');
    }
    sent = next;
  }
  await route.fulfill({ response: answer });
}

/**
 * What `route.fetch` sends, following no redirect (the page follows them). Without the browser's
 * `Cookie` header: one given is sent instead of the context's jar, which holds the current session.
 *
 * @example
 * await route.fetch(fetchOptions(routed)); // { url?, headers (no cookie), maxRedirects: 0 }
 */
export function fetchOptions({ overrides }: RoutedRequest): { url?: string; headers: Record<string, string>; maxRedirects: number } {
  const headers = Object.fromEntries(Object.entries(overrides.headers).filter(([name]) => name.toLowerCase() !== 'cookie'));
  return { ...overrides, headers, maxRedirects: 0 };
}
