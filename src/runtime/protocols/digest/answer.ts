import type { AuthContext } from '../../../core/errors.js';
import type { HeaderPair, Observation, ObservedResponse } from '../../http/observation.js';
import type { DigestSessionState } from '../../session/session.js';
import { chooseChallenge, parseDigestChallenges, supportedAlgorithm, type DigestChallenge } from './challenge.js';
import { digestAuthorization, digestUri, newCnonce } from './response.js';

/** The parts of a request a digest answer depends on. */
export interface DigestTarget {
  method: string;
  url: string;
}

/** An `Authorization` value for one request, and the state to keep for the next one. */
export interface DigestAnswer {
  authorization: string;
  state: DigestSessionState;
}

/**
 * Answers a digest challenge for a later request of a signed-in user.
 *
 * - With `wwwAuthenticate` (the header values of a 401): answers that fresh challenge, nonce count 1.
 * - Without: answers pre-emptively with the nonce the state knows and the next nonce count, but only
 *   for a request to the state's origin (a digest answer is never sent to another server).
 * - Returns `undefined` when there is nothing to answer with (no known nonce, another origin, no
 *   Digest challenge in the headers): send the request as is, then answer its 401.
 *
 * The state is not modified: keep the returned one for the next request. A server that finds the
 * pre-emptive answer stale answers 401 with a new nonce; answer that once more.
 *
 * @param context who and where, for errors.
 * @see https://www.rfc-editor.org/rfc/rfc7616#section-3.4
 * @example
 * const first = answerChallenge(session.digest!, { method: 'GET', url });
 * // first?.authorization: 'Digest username="alice", ..., nc=00000002, ...'
 */
export function answerChallenge(
  state: DigestSessionState,
  request: DigestTarget,
  wwwAuthenticate?: readonly string[],
  context?: AuthContext,
): DigestAnswer | undefined {
  const origin = new URL(request.url).origin;
  let challenge: DigestChallenge | undefined;
  let nc = 1;
  if (wwwAuthenticate) {
    const offered = parseDigestChallenges(wwwAuthenticate);
    if (offered.length === 0) return undefined;
    challenge = chooseChallenge(offered, context);
  } else {
    challenge = knownChallenge(state);
    if (!challenge || state.origin !== origin) return undefined;
    nc = (state.nc ?? 0) + 1;
  }
  const authorization = digestAuthorization({
    challenge,
    username: state.username,
    password: state.password,
    method: request.method,
    uri: digestUri(request.url),
    nc,
    cnonce: newCnonce(),
  });
  return { authorization, state: stateFor(state.username, state.password, challenge, nc, origin) };
}

/**
 * The session state after answering `challenge` with nonce count `nc`, for requests to `origin`.
 *
 * @example
 * stateFor('alice', 'secret', challenge, 1, 'http://127.0.0.1:8080').nc; // 1
 */
export function stateFor(
  username: string,
  password: string,
  challenge: DigestChallenge,
  nc: number,
  origin: string,
): DigestSessionState {
  return {
    username,
    password,
    realm: challenge.realm,
    nonce: challenge.nonce,
    ...(challenge.opaque !== undefined && { opaque: challenge.opaque }),
    algorithm: challenge.algorithm,
    ...(challenge.qop && { qop: challenge.qop }),
    nc,
    ...(challenge.userhash && { userhash: true }),
    origin,
  };
}

function knownChallenge(state: DigestSessionState): DigestChallenge | undefined {
  const algorithm = supportedAlgorithm(state.algorithm ?? 'MD5');
  if (state.realm === undefined || !state.nonce || !algorithm) return undefined;
  return {
    realm: state.realm,
    nonce: state.nonce,
    ...(state.opaque !== undefined && { opaque: state.opaque }),
    algorithm,
    ...(state.qop === 'auth' && { qop: 'auth' as const }),
    ...(state.userhash && { userhash: true }),
  };
}

/**
 * Values of header `name` (case-insensitive), in order.
 *
 * @example
 * headerValues([['WWW-Authenticate', 'Basic'], ['www-authenticate', 'Digest realm="r"']], 'www-authenticate'); // both values
 */
export function headerValues(headers: readonly HeaderPair[], name: string): string[] {
  const lower = name.toLowerCase();
  return headers.filter(([n]) => n.toLowerCase() === lower).map(([, v]) => v);
}

/**
 * `headers` with every `Authorization` replaced by `authorization` (added last).
 *
 * @example
 * withAuthorization([['Accept', 'text/html'], ['authorization', 'Basic x']], 'Digest ...'); // [['Accept', 'text/html'], ['Authorization', 'Digest ...']]
 */
export function withAuthorization(headers: readonly HeaderPair[], authorization: string): HeaderPair[] {
  return [...headers.filter(([n]) => n.toLowerCase() !== 'authorization'), ['Authorization', authorization]];
}

/**
 * The response a step ended on (the last hop of its redirect chain).
 *
 * @example
 * finalResponse(observation)?.status; // 401
 */
export function finalResponse(observation: Observation): ObservedResponse | undefined {
  return observation.responses.at(-1);
}

/**
 * Several observations as one, oldest first.
 *
 * @example
 * mergeObservations(challenged, answered).responses.map((r) => r.status); // [401, 200]
 */
export function mergeObservations(...observations: Observation[]): Observation {
  return {
    requests: observations.flatMap((o) => o.requests),
    responses: observations.flatMap((o) => o.responses),
    cookies: observations.flatMap((o) => o.cookies),
    urls: observations.flatMap((o) => o.urls),
    // The status check reads the last exchange: its retries are the ones to tell.
    ...(observations.at(-1)?.retry && { retry: observations.at(-1)?.retry }),
  };
}
