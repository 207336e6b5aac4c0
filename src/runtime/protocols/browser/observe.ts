import type { BrowserContext, Frame, Page, Request, Response } from 'playwright-core';
import type { Cookie } from 'playwright-core';
import { setTimeout as delay } from 'node:timers/promises';
import type { HeaderPair, Observation, ObservedCookie, ObservedRequest, ObservedResponse } from '../../http/observation.js';
import { emptyObservation } from '../../http/observation.js';
import type { OriginStorage } from '../../session/session.js';

/** Response bodies longer than this are cut (extractions look for tokens, not downloads). */
const BODY_LIMIT = 1024 * 1024;
/** How long the end of a step waits for headers and bodies still being read. */
const SETTLE_MS = 5000;

const TEXTUAL = /^(text\/|application\/([\w.+-]*\+)?(json|xml|javascript|x-www-form-urlencoded)\b)/i;

/** What the browser held at the end of a step. */
export interface ObservedStorage {
  cookies: ObservedCookie[];
  origins: OriginStorage[];
}

/**
 * Records what a browser context does while a step runs: every request (method, URL, all headers,
 * text body), every response (URL, status, all headers with each Set-Cookie kept apart, text and
 * JSON bodies up to 1 MiB), and every URL requested or navigated to, in every window and frame.
 */
export class ContextRecorder {
  /** Live: grows while the step runs (`wait request_url_contains=` reads it). */
  readonly observation: Observation = emptyObservation();
  private readonly pending = new Set<Promise<unknown>>();
  private readonly pages = new Set<Page>();
  private stopped = false;

  private readonly onRequest = (request: Request): void => this.request(request);
  private readonly onResponse = (response: Response): void => this.response(response);
  private readonly onPage = (page: Page): void => this.watch(page);
  private readonly onNavigated = (frame: Frame): void => this.navigated(frame);

  /**
   * Starts recording. Call {@link ContextRecorder.finish} when the step ends.
   *
   * @example
   * const recorder = new ContextRecorder(context);
   * // ... run commands ...
   * const { observation, storage } = await recorder.finish(page.url());
   */
  constructor(private readonly context: BrowserContext) {
    context.on('request', this.onRequest);
    context.on('response', this.onResponse);
    context.on('page', this.onPage);
    for (const page of context.pages()) this.watch(page);
  }

  /**
   * Stops recording, waits (at most 5 s) for headers and bodies still being read, and reads the
   * context's cookies and localStorage.
   *
   * @param finalUrl where the step ended (the selected window's URL): the last of `urls`.
   */
  async finish(finalUrl: string | undefined): Promise<{ observation: Observation; storage: ObservedStorage }> {
    this.stop();
    const deadline = Date.now() + SETTLE_MS;
    while (this.pending.size && Date.now() < deadline) {
      await settleWithin([...this.pending], deadline - Date.now());
    }
    const urls = this.observation.urls;
    if (finalUrl && finalUrl !== 'about:blank' && urls[urls.length - 1] !== finalUrl) urls.push(finalUrl);
    // IndexedDB too (Firebase keeps its tokens there); sessionStorage is read from the pages
    // themselves: Playwright's storageState leaves it out.
    const state = await this.context.storageState({ indexedDB: true });
    const cookies = state.cookies.map(toObservedCookie);
    this.observation.cookies = cookies;
    const origins = withSessionStorage(
      state.origins.map(({ origin, localStorage, ...rest }) => {
        const indexedDB = (rest as { indexedDB?: unknown[] }).indexedDB;
        return { origin, localStorage, ...(indexedDB?.length ? { indexedDB } : {}) };
      }),
      await sessionStorageOf(this.context.pages()),
    );
    this.observation.storage = origins;
    return { observation: this.observation, storage: { cookies, origins } };
  }

  /** Stops recording without reading anything (when the step failed). */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.context.off('request', this.onRequest);
    this.context.off('response', this.onResponse);
    this.context.off('page', this.onPage);
    for (const page of this.pages) page.off('framenavigated', this.onNavigated);
  }

  private track(work: Promise<unknown>): void {
    const settled = work.catch(() => undefined).finally(() => this.pending.delete(settled));
    this.pending.add(settled);
  }

  private watch(page: Page): void {
    if (this.pages.has(page)) return;
    this.pages.add(page);
    page.on('framenavigated', this.onNavigated);
  }

  private navigated(frame: Frame): void {
    const url = frame.url();
    const urls = this.observation.urls;
    if (url && url !== 'about:blank' && urls[urls.length - 1] !== url) urls.push(url);
  }

  private request(request: Request): void {
    const entry: ObservedRequest = { method: request.method(), url: request.url(), headers: [] };
    const body = request.postData();
    if (body !== null) entry.body = body;
    this.observation.requests.push(entry);
    this.observation.urls.push(entry.url);
    this.track(request.headersArray().then((headers) => (entry.headers = pairs(headers))));
  }

  private response(response: Response): void {
    const status = response.status();
    const entry: ObservedResponse = { url: response.url(), status, headers: [] };
    this.observation.responses.push(entry);
    this.track(response.headersArray().then((headers) => (entry.headers = pairs(headers))));
    const type = response.headers()['content-type'] ?? '';
    if ((status < 300 || status >= 400) && TEXTUAL.test(type)) {
      this.track(response.text().then((text) => (entry.body = text.length > BODY_LIMIT ? text.slice(0, BODY_LIMIT) : text)));
    }
  }
}

function pairs(headers: Array<{ name: string; value: string }>): HeaderPair[] {
  return headers.map(({ name, value }) => [name, value]);
}

/**
 * A Playwright cookie as an {@link ObservedCookie} (session cookies have no `expires`).
 *
 * @example
 * toObservedCookie({ name: 'sid', value: 'x', domain: 'app.test', path: '/', expires: -1,
 *   httpOnly: true, secure: false, sameSite: 'Lax' }); // { name: 'sid', value: 'x', …, no expires }
 */
export function toObservedCookie(cookie: Cookie): ObservedCookie {
  const out: ObservedCookie = {
    name: cookie.name,
    value: cookie.value,
    domain: cookie.domain,
    path: cookie.path,
    httpOnly: cookie.httpOnly,
    secure: cookie.secure,
    sameSite: cookie.sameSite,
  };
  if (cookie.expires > 0) out.expires = cookie.expires;
  return out;
}

/** Waits for the promises to settle, or `ms`, whichever comes first; leaves no timer behind. */
async function settleWithin(promises: Array<Promise<unknown>>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, ms));
  });
  try {
    await Promise.race([Promise.allSettled(promises), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Frames whose sessionStorage is read at the end of a step, at most. */
const MAX_FRAMES = 50;
/** Items of one origin's sessionStorage kept, at most, and the longest value kept (a page's data). */
const MAX_ITEMS = 1000;
const MAX_VALUE_CHARS = 1024 * 1024;
/** How long reading one frame's sessionStorage may take (a frame stuck on a dialog answers never). */
const FRAME_READ_MS = 2000;

/**
 * The sessionStorage of every frame of `pages`, by origin (the first frame of an origin wins:
 * sessionStorage belongs to a window, and the sign-in's own window comes first). Frames that
 * cannot be read (opaque origins, detached, stuck) are skipped.
 */
async function sessionStorageOf(pages: readonly Page[]): Promise<Map<string, Array<{ name: string; value: string }>>> {
  const found = new Map<string, Array<{ name: string; value: string }>>();
  const frames = pages.filter((page) => !page.isClosed()).flatMap((page) => page.frames()).slice(0, MAX_FRAMES);
  // All frames at once, each given the same deadline: a stuck frame costs FRAME_READ_MS once, not per frame.
  const timeout = delay(FRAME_READ_MS, undefined, { ref: false });
  const results = await Promise.all(frames.map((frame) => Promise.race([readSessionStorage(frame), timeout])));
  for (const result of results) {
    if (!result || result.origin === 'null' || !result.items.length || found.has(result.origin)) continue;
    found.set(result.origin, result.items);
  }
  return found;
}

/** One frame's origin and sessionStorage items (bounded), or undefined when it cannot be read. */
function readSessionStorage(frame: Frame): Promise<{ origin: string; items: Array<{ name: string; value: string }> } | undefined> {
  return frame
    .evaluate(
      ({ maxItems, maxChars }) => {
        const items: Array<{ name: string; value: string }> = [];
        for (let i = 0; i < sessionStorage.length && items.length < maxItems; i++) {
          const name = sessionStorage.key(i);
          const value = name === null ? null : sessionStorage.getItem(name);
          if (name !== null && value !== null && value.length <= maxChars) items.push({ name, value });
        }
        return { origin: location.origin, items };
      },
      { maxItems: MAX_ITEMS, maxChars: MAX_VALUE_CHARS },
    )
    .catch(() => undefined);
}

/** The origins of storageState with each one's sessionStorage added (and origins that have only that). */
function withSessionStorage(origins: OriginStorage[], sessions: Map<string, Array<{ name: string; value: string }>>): OriginStorage[] {
  const out = origins.map((origin) => {
    const sessionStorage = sessions.get(origin.origin);
    return sessionStorage ? { ...origin, sessionStorage } : origin;
  });
  for (const [origin, sessionStorage] of sessions) {
    if (!origins.some((o) => o.origin === origin)) out.push({ origin, localStorage: [], sessionStorage });
  }
  return out;
}
