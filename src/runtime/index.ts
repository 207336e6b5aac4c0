/**
 * runtime/: runs a user's compiled procedure (template -> request -> send -> extract -> inject)
 * and applies the resulting Session to outgoing requests. Knows nothing of Playwright Test.
 *
 * @example
 * import { authenticate, applySession } from './runtime/index.js';
 * const session = await authenticate(plan, 'alice', { redactor });
 * const signed = applySession(session, { method: 'GET', url: 'https://api.test/me', headers: [] });
 */
export { authenticate, refreshSession, findPlanUser, type AuthenticateOptions } from './authenticate.js';
export { runProcedure, type ProcedureRun } from './run-procedure.js';
export { applySession, newSession, sessionSecrets, type OutgoingRequest } from './apply.js';
export { computeExpiry, needsRefresh, type ExpiryInput } from './expiry.js';
export { mergeRefreshed } from './refresh-merge.js';
export { preflight } from './preflight.js';
export { withSignInContext } from './error-context.js';
export { sendRequest } from './http/transport.js';
export { newCookieJar, jarContents } from './http/cookie-jar.js';
export { closeDispatchers } from './http/dispatcher.js';
export { DEFAULT_FOLLOW_REDIRECTS, DEFAULT_TIMEOUT_SECONDS, type ResolvedRequest, type SendOptions } from './http/types.js';
export { buildWireRequest, type WireRequest } from './steps/wire-request.js';
export type { StepContext, StepResult, StepRunner } from './steps/step.js';
export type { Session, DigestSessionState, OriginStorage } from './session.js';
export type { Observation, ObservedRequest, ObservedResponse, ObservedCookie, HeaderPair } from './observation.js';
