import type { Readable } from 'node:stream';
import type { BrowserContext, Request } from 'playwright-core';
import { dispatcherFor } from '../../http/dispatcher.js';
import { MAX_BODY_BYTES } from '../../http/limits.js';
import { readBodyBytes } from '../../http/read-body.js';
import { requestTarget } from '../../http/request-target.js';

/** Statuses whose `Location` a browser follows on its own. */
const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Request headers the connection makes (or this fetch sets itself): never copied from the browser's. */
const CONNECTION_HEADERS: ReadonlySet<string> = new Set([
  'host', 'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'content-length', 'accept-encoding',
]);

/** Response headers that describe the bytes on the wire, not the decoded body handed to the browser. */
const WIRE_HEADERS: ReadonlySet<string> = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);

/** What a navigation's server answered, as the browser is to get it. */
export interface FetchedNavigation {
  status: number;
  /** Headers for `route.fulfill`: several values joined (`Set-Cookie` values by a newline, as Playwright wants). */
  headers: Record<string, string>;
  /** The decoded body; undefined for a redirect, whose body was never read. */
  body: Buffer | undefined;
  /** The raw `Location` of a redirect. */
  location: string | undefined;
}

/** Why a navigation could not be fetched: {@link fetchNavigation} throws nothing else. */
export class NavigationFetchError extends Error {
  override readonly name = 'NavigationFetchError';
  constructor(
    readonly kind: 'timeout' | 'too-large' | 'network',
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

/** Input of {@link fetchNavigation}. */
export interface NavigationFetchOptions {
  /** The whole exchange, body included, ends within this. */
  timeoutMs: number;
  /** The browser context's proxy, so the provider sees the same client. */
  proxy?: string;
  /** Aborts the exchange (the watcher stopped). */
  signal?: AbortSignal;
  /** Decoded body bytes at most; default {@link MAX_BODY_BYTES}. */
  maxBytes?: number;
  /** The context whose cookies go along when the browser's headers carry none (Chromium's do). */
  context?: Pick<BrowserContext, 'cookies'>;
}

/**
 * Sends a browser navigation that routing intercepted, as the browser would have (its method,
 * headers with the context's cookies, body), without following redirects, bounded in time (the
 * whole exchange) and in bytes (a redirect's body is never read; any other body is read up to
 * `maxBytes`, decoded bytes counted). Playwright's `route.fetch` buffers whatever the server sends
 * for as long as it sends it, which let a provider with an endless page exhaust the memory.
 *
 * @throws NavigationFetchError `timeout`, `too-large` or `network` (the cause kept for its code).
 * @example
 * const answer = await fetchNavigation(route.request(), { timeoutMs: 10_000 });
 * if (answer.location) // a redirect
 */
export async function fetchNavigation(request: Request, options: NavigationFetchOptions): Promise<FetchedNavigation> {
  const { origin, path } = requestTarget(request.url());
  const headers: string[] = [];
  for (const [name, value] of Object.entries(await request.allHeaders())) {
    if (!name.startsWith(':') && !CONNECTION_HEADERS.has(name.toLowerCase())) headers.push(name, value);
  }
  if (options.context && !headers.some((value, i) => i % 2 === 0 && value.toLowerCase() === 'cookie')) {
    const cookies = await options.context.cookies(request.url());
    if (cookies.length) headers.push('cookie', cookies.map(({ name, value }) => `${name}=${value}`).join('; '));
  }
  // What the body reader decodes, and nothing it does not (zstd).
  headers.push('accept-encoding', 'gzip, deflate, br');
  const maxBytes = options.maxBytes ?? MAX_BODY_BYTES;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, Math.max(1, options.timeoutMs));
  const stop = (): void => controller.abort();
  options.signal?.addEventListener('abort', stop, { once: true });
  try {
    const dispatcher = dispatcherFor({ insecure: false, ...(options.proxy ? { proxy: options.proxy } : {}), connectTimeoutMs: options.timeoutMs });
    const response = await dispatcher.request({
      origin,
      path,
      method: request.method() as 'GET',
      headers,
      body: request.postDataBuffer(),
      signal: controller.signal,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      responseHeaders: 'raw',
    });
    const raw = response.headers as unknown as Buffer[] | string[];
    const out: Record<string, string> = Object.create(null) as Record<string, string>;
    let location: string | undefined;
    let encoding: string | undefined;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = String(raw[i]).toLowerCase();
      // Header bytes are Latin-1 on the wire; a UTF-8 Location is read as browsers read it.
      const value = Buffer.from(String(raw[i + 1]), 'latin1').toString('utf8');
      if (name === 'location') location ??= value;
      if (name === 'content-encoding') encoding = value;
      if (WIRE_HEADERS.has(name)) continue;
      out[name] = out[name] === undefined ? value : `${out[name]}${name === 'set-cookie' ? '\n' : ', '}${value}`;
    }
    const redirect = REDIRECTS.has(response.statusCode) && location !== undefined;
    if (redirect) {
      // Only where it points matters: the body (of any length) is not read.
      const unread = response.body as unknown as Readable;
      // undici reports a body destroyed unread as an error: expected here, and nobody else listens.
      unread.on('error', () => undefined);
      unread.destroy();
      return { status: response.statusCode, headers: out, body: undefined, location };
    }
    const body = await readBodyBytes(response.body as unknown as Readable, encoding, maxBytes);
    return { status: response.statusCode, headers: out, body, location: undefined };
  } catch (error) {
    if (timedOut) throw new NavigationFetchError('timeout', `no complete answer within ${formatSeconds(options.timeoutMs)}`, error);
    if ((error as { code?: string } | null)?.code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') {
      throw new NavigationFetchError('too-large', `the page is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`, error);
    }
    throw new NavigationFetchError('network', 'the request failed', error);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', stop);
  }
}

function formatSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
