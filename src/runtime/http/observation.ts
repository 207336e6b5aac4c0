/**
 * What one sign-in step observed on the wire: the raw material of extractions. The HTTP
 * transport fills it from one request and its redirect chain; the browser runner from everything
 * the page sent and received. Extractions read it and nothing else, so they are pure functions.
 */

/** A header as sent or received; names keep their case, lookups ignore it. */
export type HeaderPair = [name: string, value: string];

/** A request that was sent (by us, or by the page in a browser step). */
export interface ObservedRequest {
  method: string;
  url: string;
  headers: HeaderPair[];
  /** The body as text, when there was one and it was text. */
  body?: string;
}

/** A response that was received, in order: a redirect chain gives one per hop. */
export interface ObservedResponse {
  url: string;
  status: number;
  headers: HeaderPair[];
  /** The body as text; absent for redirects whose body was not read and for non-text bodies. */
  body?: string;
}

/** A cookie set during the step (from Set-Cookie, or found in the browser context). */
export interface ObservedCookie {
  name: string;
  value: string;
  domain?: string;
  path?: string;
  /** Unix time in seconds; absent = session cookie. */
  expires?: number;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
}

/**
 * What one origin keeps in the browser, in Playwright's `storageState` shape (localStorage, and
 * IndexedDB as `storageState({ indexedDB: true })` gives it), plus sessionStorage, which Playwright
 * does not keep: the fixtures restore it in every page of the origin.
 * @see https://playwright.dev/docs/api/class-browsercontext#browser-context-storage-state
 */
export interface OriginStorage {
  origin: string;
  localStorage: Array<{ name: string; value: string }>;
  /** Absent: none was captured or injected. */
  sessionStorage?: Array<{ name: string; value: string }>;
  /** Playwright's IndexedDB snapshot of the origin (databases, stores, records), kept as Playwright gives it. */
  indexedDB?: unknown[];
}

/**
 * The mail a `tech: email` step read, as its extractions see it: `body` (location body), the
 * headers (location header), the links (locations link and query). All of it is a secret.
 */
export interface ObservedMail {
  /** The text part, or the HTML part as text when the mail has none. */
  body: string;
  /** Every header, values decoded, in order. */
  headers: HeaderPair[];
  /** The mail's http(s) links, each once: those of the HTML part first (`href`s decoded), then those of the text. */
  links: string[];
}

/** Everything a step observed, oldest first. */
export interface Observation {
  requests: ObservedRequest[];
  responses: ObservedResponse[];
  cookies: ObservedCookie[];
  /** URLs navigated to or requested, oldest first; the last is where the step ended. */
  urls: string[];
  /** What the transport's retry policy did, when it retried or left a transient failure as is. */
  retry?: RetrySummary;
  /**
   * What the browser kept per origin at the end of a browser step (localStorage, sessionStorage,
   * IndexedDB): the `browser_local_storage` and `browser_session_storage` extractions read it.
   */
  storage?: OriginStorage[];
  /** The mail a `tech: email` step read: its extractions read this, and nothing else. */
  mail?: ObservedMail;
}

/** The retries of one request (src/runtime/http/retry.ts), for the error when it still fails. */
export interface RetrySummary {
  /** Each earlier attempt that failed transiently, oldest first: what it got, and the wait after it. */
  failures: Array<{ failure: string; waitedMs: number }>;
  /** Why a transient failure was not retried (any more), when the reason is not the retry limit. */
  note?: string;
}

/** An observation with nothing in it, to build on. */
export function emptyObservation(): Observation {
  return { requests: [], responses: [], cookies: [], urls: [] };
}
