/**
 * runtime/: runs a user's compiled procedure (template -> request -> send -> extract -> inject)
 * and applies the resulting Session to outgoing requests. Knows nothing of Playwright Test.
 *
 * @example
 * import { authenticate, applySession } from './runtime/index.js';
 * const session = await authenticate(plan, 'alice', { redactor });
 * const signed = applySession(session, { method: 'GET', url: 'https://api.test/me', headers: [] });
 */
export { authenticate, refreshSession, findPlanUser, type AuthenticateOptions } from './engine/authenticate.js';
export { runProcedure, type ProcedureRun } from './engine/run-procedure.js';
export { applySession, newSession, sessionSecrets, type OutgoingRequest } from './session/apply.js';
export { computeExpiry, needsRefresh, type ExpiryInput } from './engine/expiry.js';
export { mergeRefreshed } from './engine/refresh-merge.js';
export { preflight } from './engine/preflight.js';
export { sendRequest } from './http/transport.js';
export { newCookieJar, jarContents } from './http/cookie-jar.js';
export { closeDispatchers } from './http/dispatcher.js';
export type { ResolvedRequest, SendOptions } from './http/types.js';
export { DEFAULT_FOLLOW_REDIRECTS, DEFAULT_TIMEOUT_SECONDS } from './http/limits.js';
export { buildWireRequest, type WireRequest } from './engine/steps/wire-request.js';
export type { StepContext, StepResult, StepRunner } from './engine/steps/step.js';
export type { Session, DigestSessionState, OriginStorage } from './session/session.js';
export type { Observation, ObservedRequest, ObservedResponse, ObservedCookie, HeaderPair } from './http/observation.js';
