import { seedSessionPasskey, type PasskeyKeeper } from './passkey-context.js';
import type { APIRequestContext, Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { MultiAuthError } from '../core/errors.js';
import type { Redactor } from '../core/redactor.js';
import type { Session } from '../runtime/index.js';
import { routeSession, type LeftOrigin } from './browser-context.js';
import { restoreBrowserStorage } from './browser-storage.js';
import type { LiveSession, Reauthenticate } from './authed-request.js';
import type { ClientCertificate } from './mtls.js';
import type { ResolvedScope } from './scope.js';
import { toSpecError } from './spec-error.js';
import { explainedPromise } from './promised-part.js';
import { toStorageState } from './storage-state.js';

/** What {@link LazySignedInUser} opens its browser parts with. */
export interface BrowserParts {
  user: string;
  session: Session;
  live: LiveSession;
  reauth: Reauthenticate;
  scope: ResolvedScope;
  certificates: ClientCertificate[] | undefined;
  /** The test's context options (`contextOptions`, `baseURL`, ...), before the session's. */
  contextOptions: BrowserContextOptions;
  /** The worker's browser, started on first use. */
  browser: () => Promise<Browser>;
  redactor: Redactor;
  /** Registers what was opened, closed after the test. */
  opened: (context: BrowserContext) => void;
  /** The user's passkey at its latest counter (the worker's sessions). */
  passkeys: PasskeyKeeper;
  /** Told of a navigation Playwright sent to another origin with the session's headers. */
  leftOrigin: (left: LeftOrigin) => void;
}

/**
 * A user signed in by `signInAs`: `request` at once (no browser), `context` and `page` opened on
 * first use, each once. They are getters on the prototype, so destructuring `{ request }` or
 * spreading the object opens nothing.
 *
 * @example
 * const bob = await signInAs('bob');
 * await bob.request.get('/api/me');   // no browser
 * const page = await bob.page;        // the browser context and page open now
 */
export class LazySignedInUser {
  private contextOpened?: Promise<BrowserContext>;
  private pageOpened?: Promise<Page>;

  constructor(
    /** The user's name. */
    readonly user: string,
    /** The user's session (headers, cookies, query, body, expiry). */
    readonly session: Session,
    /** An API request context carrying the user's credentials. */
    readonly request: APIRequestContext,
    private readonly parts: BrowserParts,
  ) {}

  /** A new browser context signed in as the user, opened on first use. */
  get context(): Promise<BrowserContext> {
    this.contextOpened ??= explainedPromise(quiet(openContext(this.parts)), this.user, 'context', this.parts.redactor);
    return this.contextOpened;
  }

  /**
   * A page in {@link LazySignedInUser.context}, opened on first use. A promise: a Page member read
   * on it (`bob.page.goto`, as earlier versions had it) throws `SPEC_USAGE`, which says to write
   * `(await bob.page).goto(...)`.
   */
  get page(): Promise<Page> {
    this.pageOpened ??= explainedPromise(quiet(this.context.then((context) => context.newPage())), this.user, 'page', this.parts.redactor);
    return this.pageOpened;
  }
}

async function openContext(parts: BrowserParts): Promise<BrowserContext> {
  const { user, session, scope, certificates } = parts;
  let browser: Browser;
  try {
    browser = await parts.browser();
  } catch (error) {
    throw toSpecError(noBrowser(user, error), parts.redactor);
  }
  const context = await browser.newContext({
    ...parts.contextOptions,
    storageState: toStorageState(session, scope.hosts),
    ...(session.digest ? { httpCredentials: { username: session.digest.username, password: session.digest.password } } : {}),
    ...(certificates ? { clientCertificates: certificates } : {}),
  });
  parts.opened(context);
  await routeSession(context, parts.live, session, scope, parts.reauth, parts.leftOrigin);
  await restoreBrowserStorage(context, session, scope);
  // Closed with the test's other contexts: the counter its pages leave is not kept back.
  await seedSessionPasskey(context, session, parts.passkeys, parts.redactor);
  return context;
}

/** The browser did not start: what `signInAs` could still do without one, and how to get one. */
function noBrowser(user: string, cause: unknown): MultiAuthError {
  const why = cause instanceof MultiAuthError ? [cause.message, ...cause.details] : [firstLine(cause)];
  return new MultiAuthError('BROWSER_STEP_FAILED', `signInAs('${user}'): its context and page need a browser, and none starts`, {
    details: why,
    hint:
      "Use only `.request` in a test that needs no browser (it opens none), or give the project a browser: `npx playwright install chromium`, or launchOptions: { executablePath: '/path/to/chromium' } in playwright.config (or MULTIAUTH_BROWSER_PATH).",
    cause,
  });
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split('\n').find((line) => line.trim() !== '') ?? '').slice(0, 200);
}

/** A promise a test may never await (a getter touched by destructuring): its failure is not an unhandled rejection. */
function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}
