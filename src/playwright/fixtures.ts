import type {
  APIRequestContext,
  BrowserContext,
  Page,
  PlaywrightTestArgs,
  PlaywrightTestOptions,
  PlaywrightWorkerArgs,
  PlaywrightWorkerOptions,
  Fixtures,
  TestInfo,
  TestType,
} from '@playwright/test';
import { dirname, resolve } from 'node:path';
import type { Session } from '../runtime/index.js';
import { loadSignedOutBody } from '../runtime/index.js';
import type { WorkerSource } from './worker-auth.js';
import { WorkerAuth, refusalReason, type AnswerOf } from './worker-auth.js';
import { runEventsFile } from './run-summary.js';
import { describeTrigger, readsBody, signedOutBy, triggerKind } from './signed-out.js';
import { restoreBrowserStorage } from './browser-storage.js';
import { resolveScope } from './scope.js';
import { toStorageState } from './storage-state.js';
import { routeSession, type LeftOrigin } from './browser-context.js';
import { describeSource, signInStep, warnLeftOrigin, warnOverriddenUser, ANNOTATION } from './sign-in-report.js';
import { WorkerBrowser } from './worker-browser.js';
import { wrapRequestContext, type LiveSession, type Reauthenticate, type SignedOutRequest } from './authed-request.js';
import { redactedUrl } from '../core/urls.js';
import { clientCertificatesFor } from './mtls.js';
import { maskAttachedTraces } from './artifacts.js';
import type { AuthUserName } from './user-names.js';
import { loadPlaywrightTest } from './playwright-test.js';
import { lazyModule } from '../core/lazy-module.js';
import { warnWorkerShare } from './worker-share.js';
import type { AccessReplayOptions, TestReplay } from './access-replay.js';

const base = loadPlaywrightTest().test;

/**
 * Options a spec or project sets with `test.use`, or a project in `playwright.config.ts`. A config
 * that sets them on its own (not through `authProjects`) types them with
 * `defineConfig<AuthOptions>`, as Playwright's own docs do for custom options.
 *
 * @example
 * import { defineConfig } from '@playwright/test';
 * import type { AuthOptions } from 'playwright-multiauth';
 * export default defineConfig<AuthOptions>({
 *   projects: [{ name: 'admin', use: { authUser: 'admin' } }],
 * });
 */
export interface AuthOptions {
  /**
   * The user the test runs as (`test.use({ authUser: 'alice' })`); undefined = not signed in.
   * One of the configured names once `multiauth types` has written the project's declaration.
   */
  authUser: AuthUserName | undefined;
  /**
   * Replays, after each test, what it sent as `authUser` as other users and `anonymous`, and reports
   * who got the owner's answer (docs/access.md "Access replay"): `test.use({ accessReplay: { as: ['bob'] } })`.
   */
  accessReplay: AccessReplayOptions | undefined;
}

/** Worker-level options. */
export interface AuthWorkerOptions {
  /** Path of `multiauth.yaml` (default: beside playwright.config, or MULTIAUTH_CONFIG). */
  authConfig: string | undefined;
}

/**
 * Another user, signed in, for tests that act as several users. `request` needs no browser;
 * `context` and `page` open on first use (`const page = await bob.page`), so a test that only
 * calls APIs as the user starts no browser.
 */
export interface SignedInUser {
  readonly user: string;
  readonly session: Session;
  /** An API request context carrying the user's credentials. */
  readonly request: APIRequestContext;
  /** A new browser context signed in as the user, opened on first use. */
  readonly context: Promise<BrowserContext>;
  /** A page in `context`, opened on first use. */
  readonly page: Promise<Page>;
}

/** Fixtures every test gets. */
export interface AuthFixtures {
  /** The session of `authUser`, for custom clients (GraphQL, websockets); undefined when unset. */
  authSession: Session | undefined;
  /** Playwright's `request`, signed in as `authUser` (plain when unset). */
  authedRequest: APIRequestContext;
  /** Signs another user in for this test: `const bob = await signInAs('bob')`. */
  signInAs: (user: AuthUserName) => Promise<SignedInUser>;
}

interface InternalTestFixtures {
  /** true: `authedRequest` never signs in again on a "signed out" answer (the access matrix: a deny is an answer). */
  _authNoReauth: boolean;
  _authResolved: { session: Session; source: WorkerSource; live: LiveSession; reauth: Reauthenticate } | undefined;
  _authTraces: void;
  /** The test's access replay, when `accessReplay` is set and the test runs as a user. */
  _accessReplay: TestReplay | undefined;
}

interface InternalWorkerFixtures {
  _multiauth: WorkerAuth;
  _authBrowser: WorkerBrowser;
}

type PlaywrightTest = PlaywrightTestArgs & PlaywrightTestOptions;
type PlaywrightWorker = PlaywrightWorkerArgs & PlaywrightWorkerOptions;

const fixtures: Fixtures<AuthOptions & AuthFixtures & InternalTestFixtures, AuthWorkerOptions & InternalWorkerFixtures, PlaywrightTest, PlaywrightWorker> = {
  // Boxed, as Playwright's options are: a value is no step of the report.
  authUser: [undefined, { option: true, box: true }],
  accessReplay: [undefined, { option: true, box: true }],
  authConfig: [undefined, { option: true, scope: 'worker', box: true }],

  // Started on first use, by a browser sign-in or a signInAs page: not by an API-only worker.
  _authBrowser: [
    async ({ playwright, browserName, launchOptions, connectOptions }, use) => {
      // What Playwright's `_browserOptions` made of `headless`, `channel` and `launchOptions` (set before any worker fixture of ours).
      const defaults = (playwright as { _defaultLaunchOptions?: object })._defaultLaunchOptions;
      const browser = new WorkerBrowser({
        browserType: playwright[browserName],
        browserName,
        launchOptions,
        ...(connectOptions ? { connectOptions, launchOptionsHeader: defaults ?? launchOptions } : {}),
        env: process.env,
      });
      await use(browser);
      await browser.close();
    },
    { scope: 'worker', box: true },
  ],
  // One browser per worker: the tests' pages and a browser sign-in share it. Playwright's own would
  // be a second launch, seconds of CPU, in the worker of every user who signs in on a page.
  browser: [async ({ _authBrowser }, use) => use(await _authBrowser.get()), { scope: 'worker', timeout: 0 }],
  // Set by accessMatrix(): a deny is an answer there, never a reason to sign in again.
  _authNoReauth: [false, { option: true, box: true }],

  _multiauth: [
    async ({ authConfig, _authBrowser }, use, workerInfo) => {
      const auth = new WorkerAuth({
        configPath: authConfig,
        baseDir: workerInfo.config.configFile ? dirname(workerInfo.config.configFile) : resolve(workerInfo.config.rootDir),
        env: process.env,
        baseURL: (workerInfo.project.use as { baseURL?: string }).baseURL,
        browser: { newContext: async (options?: import('playwright-core').BrowserContextOptions) => (await _authBrowser.get()).newContext(options) },
        ...eventsOf(workerInfo),
      });
      warnWorkerShare(workerInfo.project, workerInfo.config.workers, process.env, (key) => auth.firstInRun(key));
      await use(auth);
      await auth.close();
    },
    { scope: 'worker', box: true },
  ],

  _authResolved: [
    async ({ authUser, _multiauth }, use, testInfo) => {
      warnOverriddenUser(testInfo, authUser, (key) => _multiauth.firstInRun(key));
      if (!authUser) return use(undefined);
      const resolved = await signInStep(
        testInfo,
        authUser,
        async () => {
          const signedIn = await _multiauth.session(authUser);
          testInfo.annotations.push({ type: ANNOTATION.note, description: describeSource(authUser, signedIn.source) });
          // One re-sign-in per test, whether the page or authedRequest saw the signed-out answer first.
          return { ...signedIn, live: liveSession(_multiauth, authUser, testInfo), reauth: await reauthenticate(_multiauth, authUser, testInfo) };
        },
        _multiauth.holdsSession(authUser),
      );
      await use(resolved);
    },
    // 'self': no step of its own, so the sign-in step it makes is reported (a boxed fixture's are not).
    { box: 'self' },
  ],

  // Every test, signed in or not: a trace records whatever contexts of the worker saw.
  _authTraces: [
    async ({ _multiauth, trace }, use, testInfo) => {
      maskAttachedTraces(testInfo, _multiauth.redactor);
      await use();
      // Playwright writes the trace after this: the config's own secrets must be known by then,
      // in a worker that never opened the config (cached sessions, the run's digest) too.
      if (recordsTrace(trace, testInfo.retry)) await _multiauth.registerConfigSecrets();
    },
    { auto: true, box: true },
  ],

  authSession: async ({ _authResolved }, use) => use(_authResolved?.session),

  // Torn down after authedRequest and context (which depend on it): it replays what they sent.
  _accessReplay: [
    async ({ accessReplay, authUser, _authResolved, _multiauth, baseURL }, use, testInfo) => {
      if (!accessReplay || !authUser || !_authResolved) return use(undefined);
      // Loaded by the tests that replay, not by every worker.
      const { TestReplay } = await lazyModule(() => import('./access-replay.js'));
      const replay = await TestReplay.start(_multiauth, authUser, accessReplay, baseURL, resolveScope(await _multiauth.scope(), baseURL).origins);
      await use(replay);
      await replay.finish(testInfo);
    },
    { box: true },
  ],

  // Boxed as Playwright's own options are. The sign-in comes first (`_authResolved`), in its
  // step: these options only read what it resolved.
  storageState: [
    async ({ storageState, _authResolved, _multiauth, baseURL }, use) => {
      if (!_authResolved) return use(storageState);
      await use(toStorageState(_authResolved.session, resolveScope(await _multiauth.scope(), baseURL).hosts));
    },
    { scope: 'test', box: true },
  ],

  httpCredentials: [
    async ({ httpCredentials, _authResolved }, use) => {
      const digest = _authResolved?.session.digest;
      await use(digest ? { username: digest.username, password: digest.password } : httpCredentials);
    },
    { scope: 'test', box: true },
  ],

  // Asked for before the context's other options: without `_authResolved` first, opening the
  // config happened here and the report showed the sign-in's time as `Fixture "clientCertificates"`.
  clientCertificates: [
    async ({ _authResolved, clientCertificates, authUser, _multiauth }, use) => {
      if (!authUser || !_authResolved) return use(clientCertificates);
      await use((await clientCertificatesFor(_multiauth, authUser)) ?? clientCertificates);
    },
    { scope: 'test', box: true },
  ],

  // Boxed: the report keeps Playwright's own `Fixture "context"` step, not a second one around it.
  context: [
    async ({ context, _authResolved, _multiauth, _accessReplay, baseURL, authUser }, use, testInfo) => {
      let keepPasskey: (() => Promise<void>) | undefined;
      _accessReplay?.watch(context);
      if (_authResolved && authUser) {
        const scope = resolveScope(await _multiauth.scope(), baseURL);
        const leftOrigin = (left: LeftOrigin) => warnLeftOrigin(testInfo, authUser, left, (key) => _multiauth.firstInRun(key));
        await routeSession(context, _authResolved.live, _authResolved.session, scope, _authResolved.reauth, leftOrigin);
        await restoreBrowserStorage(context, _authResolved.session, scope);
        // Only a passkey user's session has one to seed: the others need not load the seeding.
        if (_authResolved.session.passkey) {
          const { seedSessionPasskey } = await lazyModule(() => import('./passkey-context.js'));
          keepPasskey = await seedSessionPasskey(context, _authResolved.session, _multiauth, _multiauth.redactor);
        }
      }
      await use(context);
      await keepPasskey?.();
    },
    { scope: 'test', box: true },
  ],

  authedRequest: async ({ playwright, _authResolved, _multiauth, _authNoReauth, _accessReplay, baseURL, extraHTTPHeaders, ignoreHTTPSErrors, authUser }, use) => {
    const session = _authResolved?.session;
    const context = await playwright.request.newContext({
      baseURL,
      ignoreHTTPSErrors,
      extraHTTPHeaders,
      storageState: session ? toStorageState(session, []) : undefined,
      clientCertificates: authUser ? await clientCertificatesFor(_multiauth, authUser) : undefined,
    });
    const signed = _authResolved && authUser
      ? wrapRequestContext(context, _authResolved.live, baseURL, _multiauth.redactor, _authNoReauth ? undefined : _authResolved.reauth)
      : context;
    await use(_accessReplay ? _accessReplay.recordRequests(signed) : signed);
    await context.dispose();
  },

  // Not Playwright's `browser`: asking for it starts one, and `.request` needs none.
  signInAs: async ({ _authBrowser, playwright, _multiauth, baseURL, contextOptions, extraHTTPHeaders, ignoreHTTPSErrors }, use, testInfo) => {
    const opened: Array<{ dispose(): Promise<void> } | { close(): Promise<void> }> = [];
    await use(async (user: AuthUserName) => {
      const signedIn = await signInStep(testInfo, user, async () => {
        const resolved = await _multiauth.session(user);
        testInfo.annotations.push({ type: ANNOTATION.note, description: describeSource(user, resolved.source) });
        const live = liveSession(_multiauth, user, testInfo);
        const reauth = await reauthenticate(_multiauth, user, testInfo);
        const scope = resolveScope(await _multiauth.scope(), baseURL);
        const certificates = await clientCertificatesFor(_multiauth, user);
        return { ...resolved, live, reauth, scope, certificates };
      });
      const { session, live, reauth, scope, certificates } = signedIn;
      const rawRequest = await playwright.request.newContext({
        baseURL,
        ignoreHTTPSErrors,
        extraHTTPHeaders,
        storageState: toStorageState(session, []),
        ...(certificates ? { clientCertificates: certificates } : {}),
      });
      opened.push(rawRequest);
      const request = wrapRequestContext(rawRequest, live, baseURL, _multiauth.redactor, reauth);
      // Loaded by the tests that sign a second user in, not by every worker.
      const { LazySignedInUser } = await lazyModule(() => import('./signed-in-user.js'));
      return new LazySignedInUser(user, session, request, {
        user,
        session,
        live,
        reauth,
        scope,
        certificates,
        contextOptions: { ...contextOptions, baseURL, ignoreHTTPSErrors, extraHTTPHeaders },
        browser: () => _authBrowser.get(),
        redactor: _multiauth.redactor,
        opened: (context) => opened.push(context),
        passkeys: _multiauth,
        leftOrigin: (left) => warnLeftOrigin(testInfo, user, left, (key) => _multiauth.firstInRun(key)),
      });
    });
    for (const item of opened.reverse()) await ('dispose' in item ? item.dispose() : item.close());
  },
};

// The internal fixtures (`_multiauth`, `_authResolved`) are registered all the same; only their
// names are kept out of the type, as Playwright keeps its own `_` fixtures out of `test`'s.
/**
 * The fixtures of playwright-multiauth as a `test.extend` argument, so they can be merged into a
 * project's own test (`base.extend(authFixtures)` or `mergeTests`).
 *
 * @example
 * import { test as base } from '@playwright/test';
 * import { authFixtures } from 'playwright-multiauth';
 * export const test = base.extend(authFixtures);
 */
export const authFixtures = fixtures as unknown as Fixtures<AuthOptions & AuthFixtures, AuthWorkerOptions, PlaywrightTest, PlaywrightWorker>;

/** Where this worker records the run's sign-ins (see `shareRunEvents`), when its runner shared a place. */
function eventsOf(workerInfo: import('@playwright/test').WorkerInfo): { events?: { file: string; worker: string; out: string } } {
  const file = runEventsFile(process.env);
  return file === undefined ? {} : { events: { file, worker: `worker ${workerInfo.workerIndex}`, out: workerInfo.project.outputDir } };
}

/** The user's session as of now, annotating the test when it had to be refreshed meanwhile. */
function liveSession(auth: WorkerAuth, user: string, testInfo: TestInfo): LiveSession {
  return async () => {
    const { session, source } = await auth.session(user);
    if (source !== 'memo') testInfo.annotations.push({ type: ANNOTATION.note, description: describeSource(user, source) });
    return session;
  };
}

/**
 * What a "signed out" answer to `user`'s request does (the user's `reauth`): a new session once
 * across workers, and a note on the test. Once per test: an endpoint that refuses a working
 * session too must not sign the user in at every call. An answer is a denial, returned to the
 * test as it is and remembered for every worker, when the session passes its `validation` (a
 * user without one: when the last GET the session got a 2xx answer for, sent again, still gets
 * one and refuses a request without credentials), or when the new session is refused the same
 * way; a remembered denial signs nobody in.
 */
async function reauthenticate(auth: WorkerAuth, user: string, testInfo: TestInfo): Promise<Reauthenticate> {
  const rule = await auth.signedOutRule(user);
  const note = (description: string) => testInfo.annotations.push({ type: ANNOTATION.note, description });
  // Without a validation, a GET the session got a 2xx answer for stands in for one.
  const implied = rule !== false && !(await auth.hasValidation(user));
  let tried = false;
  let renewed: { from: Session; answer: AnswerOf } | undefined;
  return {
    signedOut: (answer) => (rule ? signedOutBy(rule, answer) : undefined),
    readsBody: (status, headers) => (rule ? readsBody(rule, status, headers) : false),
    signedOutByBody: async (status, body) => (rule ? (await loadSignedOutBody())(rule, status, body) : undefined),
    holdsNavigations: rule !== false && rule.onRedirect.length > 0,
    ...(implied ? { answered: (session: Session, url: string) => auth.impliedValidation.remember(user, session, url) } : {}),
    renew: async (dead, request) => {
      const answer: AnswerOf = { method: request.method.toUpperCase(), url: request.url, refusal: triggerKind(request.trigger) };
      const what = `${describeTrigger(request.trigger, request.url)} from ${request.method} ${redactedUrl(request.url)}`;
      if (await auth.isDenial(user, answer)) return false;
      const since = await auth.suspectSince(user, answer);
      // A session made by the re-sign-in this answer caused, refused the same way.
      if (since !== undefined && dead.createdAt >= since) {
        await auth.rememberDenial(user, answer);
        note(`${user}: a session signed in again after ${what} got it too: a denial, not a dead session (remembered: not signed in again for it)`);
        return false;
      }
      const alive = implied ? await stillAnswered(auth, user, dead, request) : undefined;
      if (alive !== undefined) {
        await auth.rememberDenial(user, answer);
        note(`${user}: kept the session: GET ${alive} still answers 2xx with it, so ${what} was a denial, not a dead session`);
        return false;
      }
      if (tried) {
        if (renewed && dead !== renewed.from && sameAnswer(renewed.answer, answer)) {
          await auth.rememberDenial(user, answer);
          note(`${user}: the new session got ${what} too: a denial, not a dead session (remembered: not signed in again for it)`);
        }
        return false;
      }
      tried = true;
      const result = await auth.renew(user, dead, refusalReason(answer.refusal));
      if (!result) return false;
      if (result.kept) {
        // No sign-in was spent: a real end of the session later in the test may still renew it.
        tried = false;
        await auth.rememberDenial(user, answer);
        note(`${user}: kept the session, which passed its validation, after ${what}: a denial, not a dead session`);
        return false;
      }
      if (result.session === dead) return false;
      renewed = { from: dead, answer };
      // Not sent again in this test: the next answer to it with the new session decides.
      if (!request.retried) await auth.rememberSuspect(user, answer, result.session.createdAt);
      const how = result.source === 'fresh' ? 'signed in again' : 'took the session another worker signed in again';
      note(`${user}: ${how} after ${what}`);
      return true;
    },
  };
}

/**
 * The implied validation of a user without one: the last GET that `dead` got a 2xx answer for
 * (not the refused request itself), sent once more with it. Its path (no query) when it answers
 * 2xx again and refuses a request without credentials (a public page proves no session alive);
 * undefined when there is none or it fails, and the user is signed in again as without it.
 */
async function stillAnswered(auth: WorkerAuth, user: string, dead: Session, request: SignedOutRequest): Promise<string | undefined> {
  const last = auth.impliedValidation.lastGet(user, dead);
  if (last === undefined || !request.probe || (request.method === 'GET' && samePath(last, request.url))) return undefined;
  if (!(await auth.impliedValidation.refusesAnonymous(last))) return undefined;
  const status = await request.probe(last);
  if (status === undefined || status < 200 || status > 299) return undefined;
  const url = new URL(last);
  return url.origin === URL.parse(request.url)?.origin ? url.pathname : url.origin + url.pathname;
}

/** Whether Playwright may keep a trace of this attempt of a test, by the `trace` option. */
function recordsTrace(trace: PlaywrightWorkerOptions['trace'], retry: number): boolean {
  const mode = typeof trace === 'string' ? trace : trace.mode;
  if (mode === 'off') return false;
  if (mode === 'on-first-retry') return retry === 1;
  if (mode === 'on-all-retries') return retry > 0;
  return true;
}

/** The same request refused the same way (the query aside). */
function sameAnswer(a: AnswerOf, b: AnswerOf): boolean {
  return a.method === b.method && a.refusal === b.refusal && samePath(a.url, b.url);
}

/** The same URL, the query and fragment aside. */
function samePath(a: string, b: string): boolean {
  const path = (url: string) => url.replace(/[?#].*$/s, '');
  return path(a) === path(b);
}

/**
 * Playwright's `test` with the multiauth fixtures: `test.use({ authUser: 'alice' })` and the
 * `page`, `context` and `authedRequest` of the test are signed in as alice.
 *
 * @example
 * import { test, expect } from 'playwright-multiauth';
 * test.use({ authUser: 'alice' });
 * test('sees the dashboard', async ({ page }) => {
 *   await page.goto('/');
 *   await expect(page.getByText('Signed in as alice')).toBeVisible();
 * });
 */
export const test: TestType<PlaywrightTest & AuthOptions & AuthFixtures, PlaywrightWorker & AuthWorkerOptions> = base.extend(authFixtures);

/**
 * {@link test} with the internal fixtures in its type, for this package's own generated tests
 * (`accessMatrix`); never exported from the package.
 *
 * @example
 * internalTest('cell', async ({ _multiauth }) => { await _multiauth.plan(); });
 */
export const internalTest = test as unknown as TestType<
  PlaywrightTest & AuthOptions & AuthFixtures & InternalTestFixtures,
  PlaywrightWorker & AuthWorkerOptions & InternalWorkerFixtures
>;
