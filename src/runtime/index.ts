/**
 * runtime/: runs a user's compiled procedure (template -> request -> send -> extract -> inject)
 * and applies the resulting Session to outgoing requests. Knows nothing of Playwright Test.
 *
 * The front door of the layer. Every Playwright worker imports it, and most workers of a run only
 * read sessions that another signed in: so what signs in (the engine, the transport with undici and
 * tough-cookie, the browser runner, digest) is loaded on the first call of the functions below that
 * need it, not when this module is imported.
 *
 * @example
 * import { authenticate, applySession } from './runtime/index.js';
 * const session = await authenticate(plan, 'alice', { redactor });
 * const signed = applySession(session, { method: 'GET', url: 'https://api.test/me', headers: [] });
 */
import type { Plan } from '../compile/index.js';
import type { AuthenticateOptions } from './engine/authenticate.js';
import type { CliBrowserOptions } from './protocols/browser/launch.js';
import type { Session, SignInResult } from './session/session.js';
import { lazyModule, requireNow } from '../core/lazy-module.js';

// What signs in loads on first use (see the header): these are its parts.
const engine = () => lazyModule(() => import('./engine/authenticate.js'));
const dispatcher = () => lazyModule(() => import('./http/dispatcher.js'));
const preflightModule = () => lazyModule(() => import('./engine/preflight.js'));
// Parts only some runs need (a matrix, a passkey user, a digest user, the CLI): loaded on first use too.
const accessModule = () => lazyModule(() => import('./access/index.js'));
const passkeyModule = () => lazyModule(() => import('./protocols/browser/passkey.js'));
const browserPathModule = () => lazyModule(() => import('./protocols/browser/browser-path.js'));
const browserLaunch = () => lazyModule(() => import('./protocols/browser/launch.js'));
const completeModule = () => lazyModule(() => import('./engine/complete.js'));
const findUserModule = () => lazyModule(() => import('./engine/find-user.js'));
const sessionPasskeyModule = () => lazyModule(() => import('./session/passkey.js'));
const signedOutBodyModule = () => lazyModule(() => import('./session/signed-out-body.js'));
const digestModule = () => lazyModule(() => import('./protocols/digest/index.js'));
const mailModule = () => lazyModule(() => import('./mail/index.js'));

export { applySession, changesRequests, emptySession, newSession, sessionSecrets, withStaticCredentials, type OutgoingRequest } from './session/apply.js';
export type { AccessAnswer, AccessCell, AccessOutcome, DenyRules, ObservedMatrix } from './access/matrix.js';
export type { AccessRequestParts } from './access/request.js';
export type { ReplayContext, ReplayTarget } from './access/replay-send.js';
export type { OfferedRequest, OwnerCredentials, ReplayAnswer, ReplayBounds, ReplayClaims, ReplayPacer, ReplayCell, ReplayJudgement, ReplayReport, ReplayRow, ReplaySelection, ReplaySkip, ReplayVerdict, SkippedCounts } from './access/replay/index.js';
export { DEFAULT_SIGNED_OUT, ON_BODY_CHARS, describeTrigger, readsBody, signedOutBy, triggerKind, type Answer, type SignedOutRule, type SignedOutTrigger } from './session/signed-out.js';
export { isDomainless } from './session/cookie-match.js';
export { combineHeaders, sessionHeaders } from './session/headers.js';
export { applySessionBody, bodyKind, type BodyKind, type OutgoingBody } from './session/apply-body.js';
export { mergeBody } from './session/merge.js';
export { computeExpiry, needsRefresh, type ExpiryInput } from './engine/expiry.js';
export { closeMailReaders, mailReaderOf, setMailSinkPolicy } from './engine/mailbox.js';
export type { AuthenticateOptions } from './engine/authenticate.js';
export type { ExchangeView, SignInEvent } from './engine/sign-in-events.js';
export type { CliBrowserOptions } from './protocols/browser/launch.js';
export { launchDiscovered, type BrowserDiscovery } from './protocols/browser/discover.js';
export type { ResolvedRequest, SendOptions } from './http/types.js';
export { redirectedRequest } from './http/redirect.js';
export type { Session, SignInResult, DigestChallenge, DigestSessionState, OriginStorage } from './session/session.js';
export type { PasskeyCredential, StoredPasskey } from './session/passkey.js';
export type { Observation, ObservedRequest, ObservedResponse, ObservedCookie, HeaderPair } from './http/observation.js';
export type { DigestAnswer, DigestTarget } from './protocols/digest/index.js';
export type { MailCursor, MailMessage, MailQuery, MailReader, MailSummary, MailWaitResult, MailSource, MailSink, MailSinkOptions, OpenMailReaderOptions } from './mail/index.js';

/**
 * Signs `userName` in: runs the user's procedure and returns the Session (loads the engine on first use).
 *
 * @example
 * const session = await authenticate(plan, 'alice', { redactor });
 */
export async function authenticate(plan: Plan, userName: string, options: AuthenticateOptions): Promise<Session> {
  return (await engine()).authenticate(plan, userName, options);
}

/**
 * Refreshes a session with the user's refresh operation, or signs in again when the plan says so
 * (loads the engine on first use).
 *
 * @example
 * const fresh = await refreshSession(plan, session, { redactor });
 */
export async function refreshSession(plan: Plan, session: SignInResult, options: AuthenticateOptions): Promise<Session> {
  return (await engine()).refreshSession(plan, session, options);
}

/**
 * Signs a user in and returns what the sign-in produced, nothing the config holds: the form the
 * session cache keeps (loads the engine on first use). `completeSession` makes a session of it.
 *
 * @example
 * const produced = await signInUser(plan, 'alice', { redactor });
 */
export async function signInUser(plan: Plan, userName: string, options: AuthenticateOptions): Promise<SignInResult> {
  return (await engine()).signInUser(plan, userName, options);
}

/**
 * Loads what an HTTP sign-in runs (the engine, the HTTP client) without signing anyone in: for a
 * process that will sign in soon and has time now (the runner, while its workers start).
 *
 * @example
 * await loadSignIn(); // the first signInUser then starts at once
 */
export async function loadSignIn(): Promise<void> {
  await Promise.all([engine(), dispatcher()]);
}

/**
 * Checks a cached session with the user's `validation` (loads the engine on first use).
 *
 * @throws MultiAuthError `AUTH_VALIDATION` when the server no longer honours it.
 * @example
 * await checkStoredSession(plan, fromCache, { redactor });
 */
export async function checkStoredSession(plan: Plan, session: SignInResult, options: AuthenticateOptions): Promise<void> {
  return (await engine()).checkStoredSession(plan, session, options);
}

/**
 * Renews what a sign-in produced (a cached {@link SignInResult}) by the user's refresh rule, and
 * returns the renewed result (loads the engine on first use). A refresh that fails signs the user in
 * again (origin `signed-in`); only a failure of that sign-in is thrown.
 *
 * @example
 * const renewed = await refreshSignIn(plan, fromCache, { redactor });
 */
export async function refreshSignIn(plan: Plan, session: SignInResult, options: AuthenticateOptions): Promise<SignInResult> {
  return (await engine()).refreshSignIn(plan, session, options);
}

/**
 * Sends one request of the access matrix with a user's session applied, redirects not followed,
 * never signing in again (loads the transport on first use).
 *
 * @example
 * const answer = await sendAccessRequest(plan, user, session, plan.access!.requests[0]!);
 */
export async function sendAccessRequest(...args: Parameters<typeof import('./access/send.js').sendAccessRequest>): ReturnType<typeof import('./access/send.js').sendAccessRequest> {
  // Held once loaded: a matrix sends thousands, and every import() call resolves the module again
  // (through the loader hooks' thread when a loader such as tsx is registered: a third of the CPU).
  sendModule ??= lazyModule(() => import('./access/send.js'));
  return (await sendModule).sendAccessRequest(...args);
}

let sendModule: Promise<typeof import('./access/send.js')> | undefined;

/**
 * The access replay's sender (`replayRequest`, `replayingUsers`, `CREDENTIAL_HEADERS`), loaded on
 * first use with the transport: `accessReplay` after a test and `multiauth replay` need it.
 *
 * @example
 * const { replayRequest, replayingUsers } = await loadReplaySend();
 * const { row } = await replayRequest(target, { plan, owner: 'alice', users: replayingUsers('alice', ['bob']), session, mask });
 */
export async function loadReplaySend(): Promise<typeof import('./access/replay-send.js')> {
  replaySendModule ??= lazyModule(() => import('./access/replay-send.js'));
  return replaySendModule;
}

let replaySendModule: Promise<typeof import('./access/replay-send.js')> | undefined;

/**
 * Closes the connection pools of this process's sign-ins, so a CLI command can exit; nothing to do
 * when nothing was sent.
 *
 * @example
 * await closeDispatchers();
 */
export async function closeDispatchers(): Promise<void> {
  return (await dispatcher()).closeDispatchers();
}

/**
 * A browser for `multiauth login` of a browser user (loads the browser runner on first use).
 *
 * @example
 * const { browser, close } = await launchBrowserForCli({ env: process.env });
 */
export async function launchBrowserForCli(options: CliBrowserOptions): ReturnType<typeof import('./protocols/browser/launch.js').launchBrowserForCli> {
  return (await browserLaunch()).launchBrowserForCli(options);
}

/**
 * playwright-core as the CLI finds it (see `loadPlaywrightCore`; its finder is loaded on first
 * use): for the runner's browser sign-ins, which have no Playwright fixture to take it from.
 *
 * @throws MultiAuthError `BROWSER_STEP_FAILED` when no copy is reachable.
 * @example
 * const browserType = (await playwrightCore()).chromium;
 */
export async function playwrightCore(): Promise<typeof import('playwright-core')> {
  return (await lazyModule(() => import('./protocols/browser/playwright-core.js'))).loadPlaywrightCore();
}

/**
 * The runtime's checks of a compiled plan (`preflight`: browser commands, curl sandbox rules),
 * loaded on first use: they bring the browser runner's command table, which a worker whose
 * sessions are cached never needs.
 *
 * @example
 * const preflight = await loadPreflight();
 * const issues = preflight(plan);
 */
export async function loadPreflight(): Promise<typeof import('./engine/preflight.js').preflight> {
  return (await preflightModule()).preflight;
}

/**
 * The access matrix's pure parts: `classifyAnswer`, `accessCell`, `cellText`, `cellProblem`,
 * `LOGIN_PATH`, the renderings (`matrixText`, `matrixMarkdown`, `matrixHtml`, `matrixSummary`) and
 * the matrix's requests (`accessRequestParts`, `denyRulesFor`), loaded on first use: a worker that
 * runs no matrix never needs them.
 *
 * @example
 * const { classifyAnswer, accessCell, denyRulesFor } = await loadAccess();
 * const cell = accessCell(classifyAnswer(answer, denyRulesFor(plan, plan.access!, 'bob')), 'deny');
 */
export async function loadAccess(): Promise<typeof import('./access/index.js')> {
  // Held once loaded, as sendAccessRequest's: a matrix asks for it per cell.
  accessLoaded ??= accessModule();
  return accessLoaded;
}

let accessLoaded: Promise<typeof import('./access/index.js')> | undefined;

/**
 * {@link loadAccess} without waiting, where the package can `require` its own modules (as built:
 * CommonJS); undefined where it cannot (see `requireNow`). For the runner's exit handler.
 *
 * @example
 * const access = requireAccess(); // undefined when run from the sources
 */
export function requireAccess(): typeof import('./access/index.js') | undefined {
  return requireNow(() => import('./access/index.js'));
}

/**
 * Checks a `--browser-path` the CLI was given (loaded on first use: only the CLI's browser sign-ins
 * need it).
 *
 * @throws MultiAuthError `CLI_USAGE` when nothing is at the path or it is a folder.
 * @example
 * await checkBrowserPath(values['browser-path']);
 */
export async function checkBrowserPath(...args: Parameters<typeof import('./protocols/browser/browser-path.js').checkBrowserPath>): Promise<void> {
  (await browserPathModule()).checkBrowserPath(...args);
}

/**
 * Seeds a passkey into a browser context's virtual authenticator (loads the passkey module on first
 * use: only passkey users need it).
 *
 * @example
 * await seedPasskey(context, credential, { user: 'alice' });
 */
export async function seedPasskey(...args: Parameters<typeof import('./protocols/browser/passkey.js').seedPasskey>): ReturnType<typeof import('./protocols/browser/passkey.js').seedPasskey> {
  return (await passkeyModule()).seedPasskey(...args);
}

/**
 * The passkeys a browser context's virtual authenticator holds (loads the passkey module on first use).
 *
 * @example
 * const held = await heldPasskeys(context);
 */
export async function heldPasskeys(...args: Parameters<typeof import('./protocols/browser/passkey.js').heldPasskeys>): ReturnType<typeof import('./protocols/browser/passkey.js').heldPasskeys> {
  return (await passkeyModule()).heldPasskeys(...args);
}

/**
 * `answerChallenge`, which answers a digest challenge for a signed-in digest user (pure, no
 * transport), loaded on first use: only digest users' `authedRequest` needs it.
 *
 * @example
 * const answerChallenge = await loadDigestAnswer();
 * const answer = answerChallenge(session.digest, { method: 'GET', url });
 */
export async function loadDigestAnswer(): Promise<typeof import('./protocols/digest/index.js').answerChallenge> {
  // Held once loaded: a digest user's authedRequest asks for it per request.
  digestLoaded ??= digestModule();
  return (await digestLoaded).answerChallenge;
}

/**
 * `signedOutByBody`, which matches an answer's text against a user's `reauth.on_body`, loaded on
 * first use: only a user with `on_body` has answers read, and the regex engine stays unloaded otherwise.
 *
 * @example
 * const signedOutByBody = await loadSignedOutBody();
 * signedOutByBody(rule, 200, await response.text()); // { body: 'Session terminated', status: 200 }
 */
export async function loadSignedOutBody(): Promise<typeof import('./session/signed-out-body.js').signedOutByBody> {
  signedOutBodyLoaded ??= signedOutBodyModule();
  return (await signedOutBodyLoaded).signedOutByBody;
}

let signedOutBodyLoaded: Promise<typeof import('./session/signed-out-body.js')> | undefined;

let digestLoaded: Promise<typeof import('./protocols/digest/index.js')> | undefined;

/**
 * A cached sign-in as a session: the config's static credentials of the user folded in, and the
 * user's passkey seed (loaded on first use: only a worker that opened the config needs it).
 *
 * @example
 * const session = await completeSession(plan, fromCache);
 */
export async function completeSession(...args: Parameters<typeof import('./engine/complete.js').completeSession>): Promise<Session> {
  return (await completeModule()).completeSession(...args);
}

/**
 * `findPlanUser`, the plan's user of a name or a `USER_UNKNOWN` error that suggests the closest
 * name (loaded on first use: the CLI's commands need it, the fixtures do not).
 *
 * @example
 * const findPlanUser = await loadFindPlanUser();
 * const user = findPlanUser(plan, 'alice');
 */
export async function loadFindPlanUser(): Promise<typeof import('./engine/find-user.js').findPlanUser> {
  return (await findUserModule()).findPlanUser;
}

/**
 * What the session cache keeps of a passkey credential (the private key only where the user's
 * config allows it; loaded on first use: only passkey users need it).
 *
 * @example
 * await store.keepPasskey(user.name, await storablePasskey(user, credential));
 */
export async function storablePasskey(...args: Parameters<typeof import('./session/passkey.js').storablePasskey>): Promise<ReturnType<typeof import('./session/passkey.js').storablePasskey>> {
  return (await sessionPasskeyModule()).storablePasskey(...args);
}

/**
 * A reader of the plan's mail source, for `tech: email` steps (loads the mail room on first use:
 * smtp-server and mailparser stay unloaded in a worker that signs nobody in by mail). See
 * `runtime/mail/index.ts`.
 *
 * @throws MultiAuthError `MAIL_UNAVAILABLE` when the source cannot be read (no sink listening, unless
 *   `startSinkIfNone`; Mailpit or maildev unreachable).
 * @example
 * const reader = await openMailReader(plan.mail, { startSinkIfNone: true });
 */
export async function openMailReader(...args: Parameters<typeof import('./mail/index.js').openMailReader>): ReturnType<typeof import('./mail/index.js').openMailReader> {
  return (await mailModule()).openMailReader(...args);
}

/**
 * Starts the package's mail sink in this process (`multiauth mail-sink`; loads the mail room on first use).
 *
 * @throws MultiAuthError `MAIL_UNAVAILABLE` when a port is taken.
 * @example
 * const sink = await startMailSink({ host: '127.0.0.1', port: 2525, apiPort: 2526 });
 */
export async function startMailSink(...args: Parameters<typeof import('./mail/index.js').startMailSink>): ReturnType<typeof import('./mail/index.js').startMailSink> {
  return (await mailModule()).startMailSink(...args);
}
