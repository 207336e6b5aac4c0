import type { APIRequestContext, APIResponse, Request } from 'playwright-core';
import { loadDigestAnswer } from '../runtime/index.js';
import type { DigestSessionState, OutgoingBody, OutgoingRequest, Session } from '../runtime/index.js';
import { applySession } from '../runtime/index.js';
import { fetchArguments, readApiCall, type FetchOptions } from './api-call.js';
import { sendKeepingSession } from './api-redirects.js';
import { bindDomainlessCookies } from './cookie-binding.js';
import { toStorageState } from './storage-state.js';
import type { Redactor } from '../core/redactor.js';
import type { Answer, SignedOutTrigger } from './signed-out.js';
import { PROBE_TIMEOUT_MS } from './implied-validation.js';

/**
 * The current session of a user: a memo hit while it is valid, refreshed (once across workers)
 * when it is about to expire. Asked before every request, so a long test never sends an expired
 * token.
 */
export type LiveSession = () => Promise<Session>;

const METHODS = ['fetch', 'get', 'post', 'put', 'patch', 'delete', 'head'] as const;

/** Requests sent again after a new sign-in: those that do the same thing twice (RFC 9110 9.2.2). */
export const IDEMPOTENT: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** A request whose answer said "signed out", and what in it did. */
export interface SignedOutRequest {
  method: string;
  url: string;
  trigger: SignedOutTrigger;
  /** Whether the request is sent again with a new session (so its answer goes to `renew` too when refused). */
  retried: boolean;
  /**
   * Sends a GET of a URL once more with the refused session, through the same client, following
   * no redirect: its status, or undefined when it got none (the implied validation).
   */
  probe?: (url: string) => Promise<number | undefined>;
}

/** What the fixtures do with answers that say a user is signed out (the user's `reauth`). */
export interface Reauthenticate {
  /** What in `answer` says the session is dead, or undefined (an ordinary answer, a denial). */
  signedOut(answer: Answer): SignedOutTrigger | undefined;
  /** Whether an answer `signedOut` found nothing in must have its text read (the user's `reauth.on_body`). */
  readsBody(status: number, headers: Record<string, string>): boolean;
  /** What in an answer's text says the session is dead (`reauth.on_body`), or undefined. */
  signedOutByBody(status: number, body: string): Promise<SignedOutTrigger | undefined>;
  /**
   * Called when a request sent with `dead` got a signed-out answer: signs the user in again when
   * the session is dead (once across workers) and resolves true when there is a new session to
   * send with; false when the answer is the test's to see (a denial, a second time in a test).
   */
  renew(dead: Session, request: SignedOutRequest): Promise<boolean>;
  /** Told of each GET that `session` got a 2xx answer for, not through a redirect: proof it was alive. */
  answered?(session: Session, url: string): void;
  /**
   * Whether a page's navigations are held until their answer is read (held-navigation.ts): the
   * user's answers may redirect to the login page (`reauth.on_redirect`).
   */
  holdsNavigations?: boolean;
}

/**
 * Wraps an `APIRequestContext` so every request carries the user's current session, as
 * `applySession` decides: headers (the request's own headers win), query parameters and body
 * injections (Playwright has no defaults for those two), and cookies. Everything else of the
 * context is untouched.
 *
 * Cookies travel in the context's jar, which also keeps those the tested app sets: the context is
 * made with the session's `storageState`, and cookies without a domain (cookie injections) are
 * bound to each host the first time a request goes there ({@link bindDomainlessCookies}). Digest
 * users' requests are answered (pre-emptively with the next nonce count when possible, else by
 * answering the 401 once): Playwright's request context only answers Basic challenges.
 *
 * Playwright's errors list the request's headers in their call log: an error of a request sent for
 * the user has every secret `redactor` knows masked, in its message and stack.
 *
 * A response that says the user is signed out (`reauth.signedOut`: HTTP 401 by default; a 403, a
 * redirect to the login page, or a body that says so, when the config says so) asks `reauth` for a new session; an
 * idempotent request (GET, HEAD, OPTIONS, PUT, DELETE) is then sent once more with it, any other
 * returns its answer and the next request gets the new session. The answer to the retry goes to
 * `reauth` too: refused the same way, it was a denial.
 *
 * @example
 * const request = wrapRequestContext(await playwright.request.newContext({ baseURL }), live, baseURL, redactor);
 * await request.get('/whoami'); // Authorization, ?access_token=… as the session says
 */
export function wrapRequestContext(
  context: APIRequestContext,
  live: LiveSession,
  baseURL: string | undefined,
  redactor: Redactor,
  reauth?: Reauthenticate,
): APIRequestContext {
  let current: Session | undefined;
  let digest: DigestSessionState | undefined;
  const bind = bindDomainlessCookies(context, []);

  const session = async (): Promise<Session> => {
    const latest = await live();
    if (latest !== current) {
      // A refreshed session brings new cookie values; the context's jar must learn them.
      if (current !== undefined) await context.addCookies(toStorageState(latest, []).cookies);
      current = latest;
      digest = latest.digest;
    }
    return latest;
  };

  // What a request carries with `session`, its domainless cookies bound to its host first.
  const applyWith = (session: Session) => async (request: OutgoingRequest<OutgoingBody>): Promise<OutgoingRequest<OutgoingBody>> => {
    await bind(session, request.url);
    return applySession(session, request, { cookieJar: true });
  };

  return new Proxy(context, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || !(METHODS as readonly string[]).includes(property)) {
        return typeof value === 'function' ? value.bind(target) : value;
      }
      // The caller's own method is called, so traces and reports name it (GET, POST...) as without us.
      const send = (first: string | Request, options: FetchOptions | undefined) =>
        (value as (u: unknown, o: unknown) => Promise<APIResponse>).call(target, first, options).catch((error: unknown) => {
          throw masked(error, redactor);
        });
      return async (first: string | Request, options: FetchOptions | undefined) => {
        const s = await session();
        const call = readApiCall(property, first, options, baseURL);
        // Playwright explains a URL it cannot resolve better than we could.
        if (!call) return send(first, options);
        const applied = await applyWith(s)(call.request);
        const [url, sent] = fetchArguments(call, applied);
        if (!digest) {
          const response = await sendKeepingSession(send, call, applied, s, applyWith(s));
          if (!reauth) return response;
          const method = String(sent.method ?? 'GET').toUpperCase();
          const trigger = await signedOutAnswer(reauth, response, url);
          if (!trigger) {
            if (method === 'GET') provedAlive(reauth, s, call.request.url, url, response);
            return response;
          }
          const probe = (target: string) => probeGet(context, s, target, baseURL, reauth);
          if (!(await reauth.renew(s, { method, url: askedUrl(trigger, url, response), trigger, retried: IDEMPOTENT.has(method), probe })) || !IDEMPOTENT.has(method)) return response;
          await response.dispose();
          const renewed = await session();
          const reapplied = await applyWith(renewed)(call.request);
          const [again] = fetchArguments(call, reapplied);
          const retried = await sendKeepingSession(send, call, reapplied, renewed, applyWith(renewed));
          const refused = await signedOutAnswer(reauth, retried, again);
          // Refused again with a new session: renew learns the answer is a denial (it signs in no more in this test).
          if (refused) await reauth.renew(renewed, { method, url: askedUrl(refused, again, retried), trigger: refused, retried: false });
          else if (method === 'GET') provedAlive(reauth, renewed, call.request.url, again, retried);
          return retried;
        }
        const method = sent.method as string;
        const answerChallenge = await loadDigestAnswer();
        const early = answerChallenge(digest, { method, url });
        if (early) digest = early.state;
        const response = await send(url, early ? withAuthorization(sent, early.authorization) : sent);
        if (response.status() !== 401) return response;
        const challenge = response.headersArray().filter((h) => h.name.toLowerCase() === 'www-authenticate').map((h) => h.value);
        const answer = answerChallenge(digest, { method, url: response.url() }, challenge);
        if (!answer) return response;
        digest = answer.state;
        return send(url, withAuthorization(sent, answer.authorization));
      };
    },
  });
}

/** The error with its message and stack masked: Playwright's call log shows the headers it sent. */
function masked(error: unknown, redactor: Redactor): unknown {
  if (!(error instanceof Error)) return error;
  error.message = redactor.redact(error.message);
  if (error.stack) error.stack = redactor.redact(error.stack);
  return error;
}

/**
 * Tells `reauth` of a 2xx answer to a GET of `url` (as the caller asked it: the session is applied
 * again when it is probed) that `session` sent as `sent`, when no redirect answered it.
 */
function provedAlive(reauth: Reauthenticate, session: Session, url: string, sent: string, response: APIResponse): void {
  if (!reauth.answered || response.status() < 200 || response.status() > 299 || !sameUrl(response.url(), sent)) return;
  reauth.answered(session, url);
}

/**
 * A GET of `url` sent with `session` through `context`, bounded and following no redirect (a
 * login page that answers 200 proves nothing): its status, or undefined when it got none or one
 * that says "signed out" by the user's rule (a 200 whose text `on_body` matches).
 */
async function probeGet(context: APIRequestContext, session: Session, url: string, baseURL: string | undefined, reauth: Reauthenticate): Promise<number | undefined> {
  const call = readApiCall('get', url, { maxRedirects: 0, timeout: PROBE_TIMEOUT_MS }, baseURL);
  if (!call) return undefined;
  const [target, options] = fetchArguments(call, applySession(session, call.request, { cookieJar: true }));
  try {
    const response = await context.fetch(target, options);
    const status = response.status();
    // A 2xx that says "not logged in" (on_body) proves no session alive.
    const signedOut = await signedOutAnswer(reauth, response, target);
    await response.dispose();
    return signedOut ? undefined : status;
  } catch {
    return undefined;
  }
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}

/** The URL a signed-out answer is about: the one asked for when it redirected to the login page. */
function askedUrl(trigger: SignedOutTrigger, requested: string, response: APIResponse): string {
  return 'redirect' in trigger ? requested : response.url();
}

/**
 * What in `response` says the session is dead: its status or redirect, else its text when the
 * user's rule reads it (`on_body`; Playwright holds the body already, and keeps it for the test).
 *
 * @example
 * const trigger = await signedOutAnswer(reauth, await route.fetch(), request.url());
 */
export async function signedOutAnswer(reauth: Reauthenticate, response: APIResponse, requested: string): Promise<SignedOutTrigger | undefined> {
  const trigger = reauth.signedOut(answerOf(response, requested));
  if (trigger || !reauth.readsBody(response.status(), response.headers())) return trigger;
  return signedOutByText(reauth, response);
}

/**
 * What an answer's text says by the user's `on_body`, for a Playwright answer of the API or a page
 * (a body that cannot be read says nothing).
 *
 * @example
 * const trigger = await signedOutByText(reauth, response);
 */
export async function signedOutByText(reauth: Reauthenticate, response: { status(): number; text(): Promise<string> }): Promise<SignedOutTrigger | undefined> {
  let body: string;
  try {
    body = await response.text();
  } catch {
    return undefined;
  }
  return reauth.signedOutByBody(response.status(), body);
}

/** What the fixtures read of an answer: its status, where it ended, and where it was going. */
function answerOf(response: APIResponse, requested: string): Answer {
  const location = response.headers().location;
  return { status: response.status(), url: response.url(), requested, ...(location === undefined ? {} : { location }) };
}

function withAuthorization(options: FetchOptions, authorization: string): FetchOptions {
  return { ...options, headers: { ...options.headers, Authorization: authorization } };
}
