import type { BrowserContext, Page, Request, Route } from 'playwright-core';
import { MultiAuthError } from '../../../core/errors.js';
import { withoutEscapes } from '../../../core/terminal-text.js';
import { redactedUrl, redactUrlsIn } from '../../../core/urls.js';
import { networkError } from '../../http/network-error.js';
import { fetchNavigation, NavigationFetchError, type FetchedNavigation } from './navigation-fetch.js';

/** Where a step ran, for errors. */
export interface AuthorizeWhere {
  user: string;
  procedure?: string;
  step?: number;
}

/** What {@link catchRedirect} needs besides the context and the redirect URI. */
export interface CatchRedirectOptions {
  /** The page the authorization request opens in: only its main frame's navigations complete the redirect. */
  page: Page;
  /** Each navigation's exchange, body included, ends within this (wait_for_seconds). */
  timeoutMs: number;
  /** The context's proxy: the watcher's own requests take it too. */
  proxy?: string;
  where: AuthorizeWhere;
  /** Masks every known secret in text about to be shown. */
  redact: (text: string) => string;
}

/** The browser's visit to the redirect URI, caught before it reaches the network. */
export interface RedirectCatch {
  /** The URL the provider sent the browser to (with `code` or `error`), once it did. */
  readonly url: URL | undefined;
  /** Why the provider's pages could not be loaded (unreachable, no answer, too large), once that happened. */
  readonly failure: MultiAuthError | undefined;
  /** Resolves with the URL, or with the failure: never rejects, so nobody has to be waiting on it. */
  readonly settled: Promise<URL | MultiAuthError>;
  /** Stops watching; an exchange still under way is abandoned. */
  stop(): Promise<void>;
}

/** Redirects a browser turns into a GET of the target, so a page that navigates there does the same. */
const GET_REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303]);

const SIGNED_IN = '<!doctype html><title>Signed in</title><p>Signed in. This window can be closed.</p>';

/**
 * Catches the browser's visit to `redirectUri` (its origin and path; the query aside) before it
 * reaches the network: it is remembered and answered with a small page, so the redirect URI need
 * not exist (a native app's loopback) and a real callback page never redeems the code first.
 *
 * Only a navigation of the page's main frame counts, as only the provider sends the browser
 * there: a script's `fetch`, an XHR, an image or a frame aimed at the redirect URI is refused, and
 * never completes the sign-in with a code of the script's choosing.
 *
 * Browsers follow HTTP redirects without showing the hops to routing, and providers reach the
 * redirect URI by one. So every navigation of the main frame is sent here without following
 * redirects ({@link fetchNavigation}: bounded in time and bytes, a redirect's body never read): a
 * redirect to the redirect URI is caught; any other is handed back to the browser as a navigation
 * of its own (which comes through here again); the rest is passed on as it came, its cookies set
 * by the browser. A navigation that cannot be fetched is aborted and becomes {@link
 * RedirectCatch.failure}, located and with nothing secret in it.
 *
 * @example
 * const redirect = await catchRedirect(context, 'http://127.0.0.1:9/callback', { page, timeoutMs: 10_000, where, redact });
 * const outcome = await redirect.settled; // a URL: outcome.searchParams.get('code')
 */
export async function catchRedirect(context: BrowserContext, redirectUri: string, options: CatchRedirectOptions): Promise<RedirectCatch> {
  const target = new URL(redirectUri);
  const stopping = new AbortController();
  let caught: URL | undefined;
  let failure: MultiAuthError | undefined;
  let settle!: (outcome: URL | MultiAuthError) => void;
  const settled = new Promise<URL | MultiAuthError>((resolve) => (settle = resolve));
  const matches = (url: URL): boolean => url.origin === target.origin && url.pathname === target.pathname;
  const mainNavigation = (request: Request): boolean => request.isNavigationRequest() && frameOf(request) === options.page.mainFrame();

  const signedIn = (url: URL, headers: Record<string, string> = {}) => {
    if (!caught && !failure) {
      caught = url;
      settle(url);
    }
    // The provider's cookies (a `Set-Cookie` on the redirect) still reach the context's jar.
    const answer: Record<string, string> = { 'content-type': 'text/html' };
    if (headers['set-cookie'] !== undefined) answer['set-cookie'] = headers['set-cookie'];
    return { status: 200, headers: answer, body: SIGNED_IN };
  };

  const handle = async (route: Route): Promise<void> => {
    const request = route.request();
    const url = new URL(request.url());
    if (matches(url)) {
      if (mainNavigation(request)) return route.fulfill(signedIn(url));
      return route.abort('blockedbyclient');
    }
    if (!mainNavigation(request) || stopping.signal.aborted) return route.fallback();
    let answer: FetchedNavigation;
    try {
      answer = await fetchNavigation(request, { timeoutMs: options.timeoutMs, signal: stopping.signal, context, ...(options.proxy ? { proxy: options.proxy } : {}) });
    } catch (error) {
      if (!stopping.signal.aborted) fail(navigationFailure(error, request, options));
      return route.abort('failed');
    }
    const next = answer.location === undefined ? undefined : parseUrl(answer.location, url);
    if (next && matches(next)) return route.fulfill(signedIn(next, answer.headers));
    if (next && (next.protocol === 'http:' || next.protocol === 'https:') && (GET_REDIRECTS.has(answer.status) || request.method() === 'GET')) {
      return route.fulfill({
        status: 200,
        headers: { ...answer.headers, 'content-type': 'text/html' },
        body: `<!doctype html><meta http-equiv="refresh" content="0;url=${escapeAttribute(next.href)}">`,
      });
    }
    // Anything else (a custom scheme, a 307 that re-sends a form) is the browser's to follow or refuse.
    return route.fulfill({ status: answer.status, headers: answer.headers, ...(answer.body === undefined ? {} : { body: answer.body }) });
  };
  const fail = (error: MultiAuthError): void => {
    if (caught || failure) return;
    failure = error;
    settle(error);
  };
  const handler = async (route: Route): Promise<void> => {
    try {
      await handle(route);
    } catch {
      // The route was handled elsewhere, or its page or context closed: nothing is waiting for it.
      await route.abort('failed').catch(() => undefined);
    }
  };

  await context.route('**/*', handler);
  return {
    get url() {
      return caught;
    },
    get failure() {
      return failure;
    },
    settled,
    stop: async () => {
      stopping.abort();
      await context.unroute('**/*', handler).catch(() => undefined);
    },
  };
}

function parseUrl(text: string, base: URL): URL | undefined {
  try {
    return new URL(text, base);
  } catch {
    return undefined;
  }
}

function frameOf(request: Request) {
  try {
    return request.frame();
  } catch {
    // A service worker's request has no frame.
    return undefined;
  }
}

/** The located error of a navigation that could not be fetched: no query value, header, cookie or call log in it. */
function navigationFailure(error: unknown, request: Request, options: CatchRedirectOptions): MultiAuthError {
  const context = {
    user: options.where.user,
    procedure: options.where.procedure,
    step: options.where.step,
    stepKind: 'browser (authorization)',
    method: request.method(),
    url: redactedUrl(request.url()),
  };
  if (error instanceof NavigationFetchError && error.kind === 'timeout') {
    return new MultiAuthError('AUTH_TIMEOUT', `the provider's page did not load: ${error.message}`, {
      context,
      hint: 'Check that the provider answers (and ends its pages), or raise wait_for_seconds.',
    });
  }
  if (error instanceof NavigationFetchError && error.kind === 'too-large') {
    return new MultiAuthError('AUTH_NETWORK', `the provider's page is too large: ${error.message}`, {
      context,
      hint: 'Check authorization_url and the redirects the provider sends: a sign-in page is never this large.',
    });
  }
  const cause = error instanceof NavigationFetchError ? error.cause : error;
  const network = networkError(cause, { method: context.method, url: context.url }, { timedOut: false, timeoutMs: options.timeoutMs, ...(options.proxy ? { proxy: options.proxy } : {}) });
  return new MultiAuthError(network.code, `the provider's page could not be loaded: ${cleanText(network.message, options.redact)}`, {
    context,
    ...(network.hint === undefined ? {} : { hint: network.hint }),
  });
}

/**
 * Text from a browser or a network library, fit to show: escape sequences removed, known secrets
 * masked, URLs without query values, the first line only (Playwright's call log, below it, lists
 * the headers and cookies it sent), cut short.
 *
 * @example
 * cleanText(error.message, redact);
 */
export function cleanText(text: string, redact: (text: string) => string): string {
  const first = withoutEscapes(text).split('\n')[0] ?? '';
  const shown = redactUrlsIn(redact(first));
  return shown.length > 300 ? `${shown.slice(0, 300)}…` : shown;
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
