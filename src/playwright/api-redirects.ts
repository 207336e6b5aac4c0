import type { APIResponse } from 'playwright-core';
import type { OutgoingBody, OutgoingRequest, Session } from '../runtime/index.js';
import { redirectedRequest } from '../runtime/index.js';
import { fetchArguments, type ApiCall, type FetchOptions } from './api-call.js';
import { addedHeaders } from './headers.js';

/** Playwright's own limit when a call sets no `maxRedirects`. */
const DEFAULT_MAX_REDIRECTS = 20;

/** Playwright's own request timeout when a call sets none: here, for all its hops together. */
const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * Sends an `authedRequest` call with the session and follows its redirects hop by hop, so that the
 * session goes with hops to the call's own origin and never to another: Playwright's request
 * context carries every header but `Authorization` to wherever a redirect points, and a 307 or 308
 * the body too, so an API key or a body token would reach a host the spec never named. The first
 * hop to another origin is sent as the call would be without the session, and Playwright follows
 * the rest. A call that follows no redirect (`maxRedirects: 0`), or that the session adds no body
 * and no header but `Authorization` to (Playwright drops that one itself), is sent as it is.
 *
 * @example
 * const response = await sendKeepingSession(send, call, applySession(session, call.request), session, apply);
 */
export async function sendKeepingSession(
  send: (url: string, options: FetchOptions) => Promise<APIResponse>,
  call: ApiCall,
  applied: OutgoingRequest<OutgoingBody>,
  session: Session,
  apply: (request: OutgoingRequest<OutgoingBody>) => Promise<OutgoingRequest<OutgoingBody>>,
): Promise<APIResponse> {
  const [url, options] = fetchArguments(call, applied);
  const limit = call.rest.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  // Playwright's request context drops Authorization itself where a redirect leaves the origin.
  const carried = addedHeaders(call.request.headers, applied.headers).some((name) => name !== 'authorization');
  if (limit === 0 || !(carried || carriesBody(session))) return send(url, options);
  const origin = new URL(call.request.url).origin;
  // The call's timeout bounds the whole chain, as it does when Playwright follows the redirects
  // (0, no timeout, stays the caller's choice).
  const timeout = call.rest.timeout ?? DEFAULT_TIMEOUT_MS;
  const deadline = Date.now() + timeout;
  const within = (): number => {
    if (timeout === 0) return 0;
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new Error(`Timeout ${timeout}ms exceeded while following redirects from ${origin}`);
    return remaining;
  };
  let answer = await send(url, { ...options, maxRedirects: 0 });
  let current = call;
  for (let left = limit; ; left--) {
    const next = redirectedCall(current, answer.status(), answer.headers()['location']);
    if (!next) return answer;
    if (left === 0) throw new Error(`Max redirect count exceeded (${limit}) at ${new URL(next.request.url).origin}`);
    await answer.dispose();
    if (new URL(next.request.url).origin !== origin) {
      const [away, plain] = fetchArguments(next, next.request);
      return send(away, { ...plain, maxRedirects: left - 1, timeout: within() });
    }
    const [hop, hopOptions] = fetchArguments(next, await apply(next.request));
    answer = await send(hop, { ...hopOptions, maxRedirects: 0, timeout: within() });
    current = next;
  }
}

/** Whether the session writes into request bodies. */
function carriesBody(session: Session): boolean {
  return session.body.merge !== undefined || Object.keys(session.body.set).length > 0;
}

/**
 * The call a redirect asks for, as the caller would have made it (no session): method, URL and
 * headers by the rules every sender here follows (`redirectedRequest`), the body and its options
 * kept when the redirect keeps the body (307, 308), else dropped.
 */
function redirectedCall(call: ApiCall, status: number, location: string | undefined): ApiCall | undefined {
  const { data, form, multipart, ...rest } = call.rest;
  const hasBody = call.request.body !== undefined || data !== undefined || form !== undefined || multipart !== undefined;
  // The body's text does not matter here: only whether the redirect keeps it.
  const { method, url, headers } = call.request;
  const next = redirectedRequest({ method, url, headers, ...(hasBody ? { body: '' } : {}) }, status, location);
  if (!next) return undefined;
  const keeps = next.body !== undefined;
  const request: OutgoingRequest<OutgoingBody> = { method: next.method, url: next.url, headers: next.headers };
  if (keeps && call.request.body !== undefined) request.body = call.request.body;
  return { request, rest: keeps ? call.rest : rest };
}
