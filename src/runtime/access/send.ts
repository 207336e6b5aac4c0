import type { Plan, PlanAccessRequest, PlanUser } from '../../compile/index.js';
import { isMultiAuthError } from '../../core/errors.js';
import { planCertificates } from '../http/client-certificates.js';
import { newCookieJar } from '../http/cookie-jar.js';
import { DEFAULT_TIMEOUT_SECONDS } from '../http/limits.js';
import { headerValues } from '../http/status-error.js';
import { sendRequest } from '../http/transport.js';
import { answerChallenge } from '../protocols/digest/index.js';
import { applySession } from '../session/apply.js';
import type { Session } from '../session/session.js';
import { MATCHED_BODY_CHARS, type AccessAnswer } from './matrix.js';
import { accessRequestParts } from './request.js';

/**
 * Sends one matrix request with `session` applied (none for `anonymous`), as `authedRequest` would
 * but with plain undici: redirects not followed (a redirect to the login page is an answer), a
 * digest challenge answered once, and never a new sign-in: whatever comes back is the cell's answer.
 *
 * @example
 * const answer = await sendAccessRequest(plan, editor, session, plan.access!.requests[0]!);
 * // { url: 'https://a.test/api/users', status: 403, body: '...' }
 */
export async function sendAccessRequest(plan: Plan, user: PlanUser | undefined, session: Session | undefined, request: PlanAccessRequest): Promise<AccessAnswer> {
  const parts = accessRequestParts(request);
  const signed = session ? applySession(session, parts) : parts;
  const options = {
    timeoutMs: DEFAULT_TIMEOUT_SECONDS * 1000,
    followRedirects: 0,
    insecure: false,
    ...(plan.proxy === undefined ? {} : { proxy: plan.proxy }),
    ...(user?.mtls && plan.mtls.length ? { clientCertificates: planCertificates(plan) } : {}),
  };
  try {
    let observation = await sendRequest(signed, { ...options, jar: newCookieJar() });
    let response = observation.responses.at(-1);
    if (response?.status === 401 && session?.digest) {
      const answer = answerChallenge(session.digest, { method: signed.method, url: signed.url }, headerValues(response, 'www-authenticate'));
      if (answer) {
        const headers = [...signed.headers.filter(([name]) => name.toLowerCase() !== 'authorization'), ['Authorization', answer.authorization] as [string, string]];
        observation = await sendRequest({ ...signed, headers }, { ...options, jar: newCookieJar() });
        response = observation.responses.at(-1);
      }
    }
    if (!response) return { url: request.url, failure: 'no answer' };
    const location = headerValues(response, 'location')[0];
    return {
      url: request.url,
      status: response.status,
      ...(location === undefined ? {} : { location }),
      ...(response.body === undefined ? {} : { body: response.body.slice(0, MATCHED_BODY_CHARS) }),
    };
  } catch (error) {
    // The code says what happened; the message may quote the request.
    if (isMultiAuthError(error)) return { url: request.url, failure: error.code === 'AUTH_TIMEOUT' ? 'timed out' : 'network error' };
    throw error;
  }
}
