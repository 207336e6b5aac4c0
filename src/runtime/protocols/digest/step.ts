import { MultiAuthError, type AuthContext } from '../../../core/errors.js';
import type { ResolvedRequest } from '../../http/types.js';
import type { Observation } from '../../http/observation.js';
import type { DigestSessionState } from '../../session/session.js';
import {
  answerChallenge,
  finalResponse,
  headerValues,
  mergeObservations,
  withAuthorization,
} from './answer.js';
import { parseDigestChallenges } from './challenge.js';
import { parseAuthChallenges } from '../../http/www-authenticate.js';

/** Sends one request and reports what was observed; any HTTP status is a result, not an error. */
export type DigestSend<R extends ResolvedRequest> = (request: R) => Promise<Observation>;

/** Input of {@link runDigestStep}. */
export interface DigestStepInput<R extends ResolvedRequest> {
  /** Sent without credentials: must draw a 401 with a Digest challenge. */
  first: R;
  /** Sent with the answer (its `Authorization` header is replaced). */
  second: R;
  username: string;
  password: string;
  send: DigestSend<R>;
  /** User, procedure and step, for errors. */
  where: AuthContext;
}

/** What a digest step observed (both exchanges, oldest first) and the state for later requests. */
export interface DigestStepResult {
  observation: Observation;
  state: DigestSessionState;
}

/**
 * Runs a `digest` operation: sends the first request, which must answer 401 with a Digest
 * challenge; answers the strongest challenge offered in the second request; when the server finds
 * the nonce stale (401 with `stale=true`) answers the new one once more. A 401 to the answer is an
 * `AUTH_HTTP_STATUS` error (wrong username or password); any other status of the second exchange is
 * left to the caller's status check, which must look at the last response only (the merged
 * observation starts with the challenge's 401).
 *
 * @see https://www.rfc-editor.org/rfc/rfc7616#section-3.3
 * @example
 * const { observation, state } = await runDigestStep({
 *   first, second: first, username: 'alice', password, send: (r) => sendRequest(r, options),
 *   where: { user: 'alice', procedure: 'digest-users', step: 0 },
 * });
 * session.digest = state;
 */
export async function runDigestStep<R extends ResolvedRequest>(input: DigestStepInput<R>): Promise<DigestStepResult> {
  const { first, second, send, where } = input;
  const context = (request: R, status?: number): AuthContext => ({
    ...where,
    stepKind: 'digest',
    method: request.method,
    url: request.url,
    ...(status !== undefined && { status }),
  });

  const drawn = await send(first);
  const challengeResponse = finalResponse(drawn);
  if (challengeResponse?.status !== 401) {
    throw new MultiAuthError('AUTH_PROTOCOL', `expected a 401 digest challenge, got ${challengeResponse?.status ?? 'no response'}`, {
      context: context(first, challengeResponse?.status),
      hint: 'Point `first_request` at a URL the server protects with Digest authentication: without credentials it must answer 401 with `WWW-Authenticate: Digest ...`.',
    });
  }
  const offered = headerValues(challengeResponse.headers, 'www-authenticate');
  if (parseDigestChallenges(offered).length === 0) throw noDigestChallenge(offered, context(first, 401));

  const start: DigestSessionState = { username: input.username, password: input.password };
  let answer = answerChallenge(start, second, offered, context(first, 401));
  const observations = [drawn];
  for (let attempt = 0; answer; attempt++) {
    const answered = await send({ ...second, headers: withAuthorization(second.headers, answer.authorization) });
    observations.push(answered);
    const response = finalResponse(answered);
    if (response?.status !== 401) return { observation: mergeObservations(...observations), state: answer.state };
    const again = headerValues(response.headers, 'www-authenticate');
    const stale = parseDigestChallenges(again).some((c) => c.stale);
    if (!stale || attempt > 0) throw rejected(answer.state, context(second, 401));
    answer = answerChallenge(answer.state, second, again, context(second, 401));
  }
  throw noDigestChallenge(offered, context(first, 401));
}

/**
 * Sends a later request of a digest user: answers pre-emptively when the state allows it (same
 * origin, known nonce, next nonce count), and answers a 401 Digest challenge once (a new or stale
 * nonce). Returns everything observed and the state to keep for the next request.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7616#section-3.4
 * @example
 * const { observation, state } = await sendWithDigest(session.digest!, request, send);
 * session.digest = state;
 */
export async function sendWithDigest<R extends ResolvedRequest>(
  state: DigestSessionState,
  request: R,
  send: DigestSend<R>,
  context?: AuthContext,
): Promise<DigestStepResult> {
  const eager = answerChallenge(state, request);
  const sent = await send(eager ? { ...request, headers: withAuthorization(request.headers, eager.authorization) } : request);
  const current = eager?.state ?? state;
  const response = finalResponse(sent);
  if (response?.status !== 401) return { observation: sent, state: current };
  const fresh = answerChallenge(current, request, headerValues(response.headers, 'www-authenticate'), context);
  if (!fresh) return { observation: sent, state: current };
  const answered = await send({ ...request, headers: withAuthorization(request.headers, fresh.authorization) });
  return { observation: mergeObservations(sent, answered), state: fresh.state };
}

function noDigestChallenge(offered: string[], context: AuthContext): MultiAuthError {
  const schemes = [...new Set(parseAuthChallenges(offered).map((c) => c.scheme))];
  const basic = schemes.some((s) => s.toLowerCase() === 'basic');
  return new MultiAuthError(
    'DIGEST_UNSUPPORTED',
    schemes.length
      ? `the server answered 401 without a Digest challenge (it offers ${schemes.join(', ')})`
      : 'the server answered 401 without a WWW-Authenticate header',
    {
      context,
      hint: basic
        ? 'The server asks for HTTP Basic: use the `basic` preset (or credentials username and password) instead of `digest`.'
        : 'Check that `first_request` points at a resource protected by Digest authentication.',
    },
  );
}

function rejected(state: DigestSessionState, context: AuthContext): MultiAuthError {
  return new MultiAuthError('AUTH_HTTP_STATUS', 'the server rejected the digest answer (HTTP 401)', {
    context,
    details: [`realm "${state.realm}", algorithm ${state.algorithm}${state.qop ? `, qop ${state.qop}` : ', no qop'}`],
    hint: `Check the username and password of this user for realm "${state.realm}", and that \`second_request\` asks for a URL of the same realm.`,
  });
}

