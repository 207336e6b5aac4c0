import type { Readable } from 'node:stream';
import { redactedUrl } from '../../core/urls.js';
import { MultiAuthError } from '../../core/errors.js';
import { emptyObservation, type HeaderPair, type Observation, type ObservedResponse } from './observation.js';
import { hasCookies, jarCookieHeader, storeSetCookies } from './cookie-jar.js';
import { dispatcherFor } from './dispatcher.js';
import { networkError } from './network-error.js';
import { readBodyText } from './read-body.js';
import { redirectedRequest, refusedBodyRedirect, refusedRedirect } from './redirect.js';
import { requestTarget } from './request-target.js';
import { unwatchBody, watchBody } from './body-deadline.js';
import { processRetryPolicy, withRetries, type AttemptProgress } from './retry.js';
import type { ResolvedRequest, SendOptions } from './types.js';

/**
 * Sends one sign-in request with undici and follows its redirects by hand, so that every hop is
 * observed: each request as sent, each response (headers and text body), each cookie set, each URL.
 * The jar's cookies go out on every hop and every `Set-Cookie` goes into the jar.
 *
 * Any HTTP status is a result here (checking it is the caller's business). Failures to exchange
 * are {@link MultiAuthError}s: `AUTH_TIMEOUT` past `timeoutMs` (the whole chain, retries included),
 * `AUTH_REDIRECT` past `followRedirects` hops, `AUTH_NETWORK` for connection and TLS errors.
 * Transient failures (429, 502, 503; a connection refused or reset before any answer) are tried
 * again under `opts.retry`, by default the process's policy, which `MULTIAUTH_RETRIES` sets
 * ({@link withRetries}).
 *
 * @example
 * const observation = await sendRequest(
 *   { method: 'POST', url: 'http://127.0.0.1:4010/auth/token', headers: [['content-type', 'application/json']], body: '{}' },
 *   { timeoutMs: 30_000, followRedirects: 20, insecure: false, jar: newCookieJar() },
 * );
 * observation.responses.at(-1)?.status; // 200
 */
export function sendRequest(req: ResolvedRequest, opts: SendOptions): Promise<Observation> {
  // Not async itself: one promise less per sign-in; a refused URL is still a rejection.
  try {
    checkScheme(req);
  } catch (error) {
    return Promise.reject(error);
  }
  const deadline = Date.now() + opts.timeoutMs;
  return withRetries((progress) => sendOnce(req, opts, deadline, progress), {
    policy: opts.retry ?? processRetryPolicy(),
    deadline,
    ...(opts.signal && { signal: opts.signal }),
  });
}

/** One attempt: the request and its redirect chain, within what is left before `deadline`. */
async function sendOnce(req: ResolvedRequest, opts: SendOptions, deadline: number, progress: AttemptProgress): Promise<Observation> {
  const observation = emptyObservation();
  // undici's own per-phase timers, given what is left of the exchange's deadline: cheaper than an
  // AbortController and a timer per request, and they stop a hop that stalls mid-body too.
  let timedOut = false;
  let current = req;
  try {
    for (let hops = 0; ; hops++) {
      const left = deadline - Date.now();
      if (left <= 0) {
        timedOut = true;
        throw new Error('deadline passed between redirects');
      }
      const response = await exchange(current, opts, left, observation, progress);
      const location = headerValue(response.headers, 'location');
      const refusal = opts.followRedirects === 0 ? undefined : refusedRedirect(response.status, location, current.url, req.url);
      if (refusal) {
        throw new MultiAuthError('AUTH_REDIRECT', `refused ${refusal}`, {
          context: { method: current.method, url: redactedUrl(current.url), status: response.status },
          hint: 'A sign-in follows redirects to http(s) addresses the config could have named; set follow_redirects: 0 to stop at this response and extract from its Location header.',
        });
      }
      const next = redirectedRequest(current, response.status, location);
      if (!next || opts.followRedirects === 0) return observation;
      const bodyRefusal = refusedBodyRedirect(current, next);
      if (bodyRefusal) {
        throw new MultiAuthError('AUTH_REDIRECT', `refused ${bodyRefusal}`, {
          context: { method: current.method, url: redactedUrl(current.url), status: response.status },
          details: [`redirect to: ${redactedUrl(next.url)}`],
          hint: `A ${response.status} keeps the method and body, and this body carries the sign-in's credentials. Point the operation's \`url\` at the address that answers (${redactedUrl(next.url)}) if that server is meant to receive them, or set follow_redirects: 0 to stop at this response.`,
        });
      }
      if (hops >= opts.followRedirects) {
        throw new MultiAuthError('AUTH_REDIRECT', `more than ${opts.followRedirects} redirect${opts.followRedirects === 1 ? '' : 's'}`, {
          context: { method: req.method, url: redactedUrl(req.url), status: response.status },
          details: [`last redirect: ${response.status} to ${redactedUrl(next.url)}`],
          hint: 'Raise the operation\'s `follow_redirects`, or set it to 0 to stop at the first redirect and extract from its Location header.',
        });
      }
      current = next;
    }
  } catch (error) {
    if (opts.signal?.aborted) throw opts.signal.reason ?? error;
    if (error instanceof ExchangeTimeout) timedOut = true;
    throw networkError(error, { method: current.method, url: redactedUrl(current.url) }, { timedOut, timeoutMs: opts.timeoutMs, proxy: opts.proxy });
  }
}

/** One hop: send, record request, response, cookies and URL; returns the response as recorded. */
async function exchange(
  req: ResolvedRequest,
  opts: SendOptions,
  timeoutMs: number,
  observation: Observation,
  progress: AttemptProgress,
): Promise<ObservedResponse> {
  progress.answering = false;
  const headers = hasCookies(opts.jar) ? await withJarCookies(req, opts.jar) : req.headers;
  observation.urls.push(req.url);
  observation.requests.push(req.body === undefined ? { method: req.method, url: req.url, headers } : { method: req.method, url: req.url, headers, body: req.body });

  const { origin, path } = requestTarget(req.url);
  const dispatcher = dispatcherFor({ insecure: opts.insecure, proxy: opts.proxy, connectTimeoutMs: opts.timeoutMs, clientCertificates: opts.clientCertificates });
  const sentAt = Date.now();
  // The dispatcher's own `request`: undici's top-level one would parse the URL again.
  const response = await dispatcher.request({
    origin,
    path,
    method: req.method as 'GET',
    headers: flatPairs(headers),
    body: req.body ?? null,
    signal: opts.signal ?? null,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    responseHeaders: 'raw',
  });
  progress.responses++;
  progress.lastStatus = response.statusCode;
  progress.answering = true;
  const responseHeaders = pairs(response.headers as unknown as string[]);
  if (headerValue(responseHeaders, 'set-cookie') !== undefined) {
    const setCookies = responseHeaders.filter(([name]) => name.toLowerCase() === 'set-cookie').map(([, value]) => value);
    observation.cookies.push(...(await storeSetCookies(opts.jar, req.url, setCookies)));
  }
  // The whole body within the deadline, not only each gap between its chunks (undici's bodyTimeout).
  const stream = response.body as unknown as Readable;
  watchBody(stream, sentAt + timeoutMs, lateBody);
  let body: string;
  try {
    body = req.method === 'HEAD'
      ? await response.body.dump().then(() => '')
      : await readBodyText(stream, headerValue(responseHeaders, 'content-encoding', true));
  } finally {
    unwatchBody(stream);
  }
  const observed: ObservedResponse = { url: req.url, status: response.statusCode, headers: responseHeaders, body };
  observation.responses.push(observed);
  return observed;
}

/** The exchange's deadline passed while its body was still arriving. */
class ExchangeTimeout extends Error {
  override readonly name = 'ExchangeTimeout';
  constructor() {
    super('the response body was still arriving when the timeout ran out');
  }
}

function lateBody(): Error {
  return new ExchangeTimeout();
}

/** The request's headers with the jar's cookies for its URL added to (or after) its own `Cookie`. */
async function withJarCookies(req: ResolvedRequest, jar: SendOptions['jar']): Promise<HeaderPair[]> {
  const fromJar = await jarCookieHeader(jar, req.url);
  if (!fromJar) return req.headers;
  const own = req.headers.filter(([name]) => name.toLowerCase() === 'cookie').map(([, value]) => value);
  const others = req.headers.filter(([name]) => name.toLowerCase() !== 'cookie');
  return [...others, ['Cookie', [...own, fromJar].join('; ')]];
}

function checkScheme(req: ResolvedRequest): void {
  if (/^https?:\/\/[^/?#\s]/i.test(req.url)) return;
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    throw new MultiAuthError('AUTH_NETWORK', `not a valid URL: "${redactedUrl(req.url)}"`, {
      context: { method: req.method },
      hint: 'Write an absolute http:// or https:// URL (templates such as {{host}} must expand to one).',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new MultiAuthError('AUTH_NETWORK', `unsupported URL scheme "${url.protocol}"`, {
      context: { method: req.method, url: redactedUrl(req.url) },
      hint: 'Sign-in requests go to http:// or https:// URLs only.',
    });
  }
}

/** `pairs.flat()`, without the generic (and slow) `Array.prototype.flat`. */
function flatPairs(pairs: HeaderPair[]): string[] {
  const out: string[] = [];
  for (const [name, value] of pairs) out.push(name, value);
  return out;
}

function pairs(raw: string[]): HeaderPair[] {
  const out: HeaderPair[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i] as string, raw[i + 1] as string]);
  return out;
}

/** The first value of a header (`last`: the last one), without an array of them all. */
function headerValue(headers: HeaderPair[], name: string, last = false): string | undefined {
  let found: string | undefined;
  // The length test first spares lower-casing most names.
  for (const [key, value] of headers) {
    if (key.length === name.length && key.toLowerCase() === name) {
      if (!last) return value;
      found = value;
    }
  }
  return found;
}

