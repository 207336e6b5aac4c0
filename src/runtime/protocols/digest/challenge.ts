import { MultiAuthError, type AuthContext } from '../../../core/errors.js';
import { parseAuthChallenges } from '../../http/www-authenticate.js';

/** The digest algorithms this client answers (RFC 7616 section 3.3, plus MD5 of RFC 2617). */
export type DigestAlgorithm = 'MD5' | 'MD5-sess' | 'SHA-256' | 'SHA-256-sess';

/** Every supported algorithm, strongest hash first. */
export const DIGEST_ALGORITHMS: readonly DigestAlgorithm[] = ['SHA-256', 'SHA-256-sess', 'MD5', 'MD5-sess'];

/**
 * A Digest challenge as the server wrote it, before deciding whether it can be answered.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7616#section-3.3
 */
export interface OfferedDigestChallenge {
  realm?: string;
  nonce?: string;
  opaque?: string;
  /** As sent; `MD5` when the server sent none (RFC 7616 section 3.3). */
  algorithm: string;
  /** The qop options offered, lower-cased; empty = no qop (RFC 2069 compatibility). */
  qop: string[];
  stale: boolean;
  userhash: boolean;
  charset?: string;
  domain?: string;
}

/**
 * A Digest challenge this client can answer: a supported algorithm and qop `auth` (or none).
 *
 * @see https://www.rfc-editor.org/rfc/rfc7616#section-3.3
 */
export interface DigestChallenge {
  realm: string;
  nonce: string;
  opaque?: string;
  algorithm: DigestAlgorithm;
  /** `auth` when the server offers it; absent = the RFC 2069 response without nc and cnonce. */
  qop?: 'auth';
  /** The previous nonce expired but the credentials were right: answer again with this one. */
  stale?: boolean;
  /** The server wants the username hashed: `H(username:realm)`. */
  userhash?: boolean;
  charset?: string;
  domain?: string;
}

/**
 * Reads the Digest challenges out of every `WWW-Authenticate` header value of a response, in the
 * server's order; other schemes (Basic, Bearer, ...) are skipped. Pass the result to
 * {@link chooseChallenge}.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7616#section-3.3
 * @example
 * parseDigestChallenges(['Basic realm="x"', 'Digest realm="r", nonce="n", qop="auth,auth-int"']);
 * // [{ realm: 'r', nonce: 'n', algorithm: 'MD5', qop: ['auth', 'auth-int'], stale: false, userhash: false }]
 */
export function parseDigestChallenges(wwwAuthenticate: readonly string[]): OfferedDigestChallenge[] {
  return parseAuthChallenges(wwwAuthenticate)
    .filter((c) => c.scheme.toLowerCase() === 'digest')
    .map(({ params: p }) => ({
      ...(p.realm !== undefined && { realm: p.realm }),
      ...(p.nonce !== undefined && { nonce: p.nonce }),
      ...(p.opaque !== undefined && { opaque: p.opaque }),
      algorithm: p.algorithm || 'MD5',
      qop: (p.qop ?? '').split(',').map((q) => q.trim().toLowerCase()).filter(Boolean),
      stale: p.stale?.toLowerCase() === 'true',
      userhash: p.userhash?.toLowerCase() === 'true',
      ...(p.charset !== undefined && { charset: p.charset }),
      ...(p.domain !== undefined && { domain: p.domain }),
    }));
}

/**
 * The canonical name of a supported algorithm (names are case-insensitive), or undefined.
 *
 * @example
 * supportedAlgorithm('sha-256-SESS'); // 'SHA-256-sess'
 * supportedAlgorithm('SHA-512-256'); // undefined
 */
export function supportedAlgorithm(name: string): DigestAlgorithm | undefined {
  return DIGEST_ALGORITHMS.find((a) => a.toLowerCase() === name.trim().toLowerCase());
}

/**
 * Picks the challenge to answer: the strongest supported hash (SHA-256 over MD5), then qop `auth`
 * over none, then the server's order. Throws `DIGEST_UNSUPPORTED` naming what the server offered
 * when no challenge can be answered (unknown algorithm, only `auth-int`, missing nonce or realm).
 *
 * @param context who and where, for the error.
 * @see https://www.rfc-editor.org/rfc/rfc7616#section-3.7
 * @example
 * chooseChallenge(parseDigestChallenges([
 *   'Digest realm="r", nonce="a", algorithm=MD5, qop="auth"',
 *   'Digest realm="r", nonce="b", algorithm=SHA-256, qop="auth"',
 * ])).algorithm; // 'SHA-256'
 */
export function chooseChallenge(challenges: readonly OfferedDigestChallenge[], context?: AuthContext): DigestChallenge {
  const answerable = challenges.flatMap((offered) => {
    const challenge = answerableChallenge(offered);
    return challenge ? [challenge] : [];
  });
  const rank = (c: DigestChallenge) => (c.algorithm.startsWith('SHA-256') ? 2 : 0) + (c.qop ? 1 : 0);
  const best = answerable.reduce<DigestChallenge | undefined>((a, c) => (!a || rank(c) > rank(a) ? c : a), undefined);
  if (best) return best;
  throw new MultiAuthError('DIGEST_UNSUPPORTED', unsupportedMessage(challenges), {
    ...(context && { context }),
    details: challenges.map(describeOffered),
    hint: challenges.some((c) => c.qop.length > 0 && !c.qop.includes('auth'))
      ? 'qop "auth-int" (integrity of the body) is not supported: configure the server to also offer qop="auth" for this realm.'
      : `Configure the server to offer algorithm ${DIGEST_ALGORITHMS.join(', ')} with qop "auth" (or none), or sign this user in with another preset.`,
  });
}

function answerableChallenge(offered: OfferedDigestChallenge): DigestChallenge | undefined {
  const algorithm = supportedAlgorithm(offered.algorithm);
  if (!algorithm || offered.realm === undefined || !offered.nonce) return undefined;
  if (offered.qop.length > 0 && !offered.qop.includes('auth')) return undefined;
  return {
    realm: offered.realm,
    nonce: offered.nonce,
    ...(offered.opaque !== undefined && { opaque: offered.opaque }),
    algorithm,
    ...(offered.qop.length > 0 && { qop: 'auth' as const }),
    ...(offered.stale && { stale: true }),
    ...(offered.userhash && { userhash: true }),
    ...(offered.charset !== undefined && { charset: offered.charset }),
    ...(offered.domain !== undefined && { domain: offered.domain }),
  };
}

function unsupportedMessage(challenges: readonly OfferedDigestChallenge[]): string {
  if (challenges.length === 0) return 'no Digest challenge to answer';
  const algorithms = [...new Set(challenges.map((c) => c.algorithm))].join(', ');
  const qops = [...new Set(challenges.flatMap((c) => (c.qop.length ? c.qop : ['none'])))].join(', ');
  return `no Digest challenge this client can answer: the server offered algorithm ${algorithms} with qop ${qops}`;
}

function describeOffered(c: OfferedDigestChallenge, index: number): string {
  const problems: string[] = [];
  if (!supportedAlgorithm(c.algorithm)) problems.push(`algorithm ${c.algorithm} is not supported`);
  if (c.qop.length > 0 && !c.qop.includes('auth')) problems.push(`qop ${c.qop.join(', ')} is not supported`);
  if (c.realm === undefined) problems.push('no realm');
  if (!c.nonce) problems.push('no nonce');
  return `challenge ${index + 1}: ${problems.join('; ') || 'answerable'}`;
}
