/**
 * RFC 7616 HTTP Digest authentication: parse challenges, choose one, answer it, run the two-request
 * `digest` operation and answer later challenges of a signed-in user.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7616
 */
export { parseAuthChallenges, type AuthChallenge } from '../../http/www-authenticate.js';
export {
  chooseChallenge,
  DIGEST_ALGORITHMS,
  parseDigestChallenges,
  supportedAlgorithm,
  type DigestAlgorithm,
  type DigestChallenge,
  type OfferedDigestChallenge,
} from './challenge.js';
export { digestAuthorization, digestUri, formatNonceCount, newCnonce, type DigestAnswerInput } from './response.js';
export { answerChallenge, stateFor, type DigestAnswer, type DigestTarget } from './answer.js';
export { runDigestStep, sendWithDigest, type DigestSend, type DigestStepInput, type DigestStepResult } from './step.js';
