import { test, expect } from '@playwright/test';
import { MultiAuthError } from '../../../../src/core/errors.js';
import { chooseChallenge, parseDigestChallenges, supportedAlgorithm } from '../../../../src/runtime/protocols/digest/challenge.js';

/** The two challenges of RFC 7616 section 3.9.1, as a server sends them. */
const rfc7616Challenges = ['SHA-256', 'MD5'].map(
  (algorithm) => `Digest
    realm="http-auth@example.org",
    qop="auth, auth-int",
    algorithm=${algorithm},
    nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v",
    opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"`,
);

test('parses the RFC 7616 example challenges', () => {
  const offered = parseDigestChallenges(rfc7616Challenges);
  expect(offered).toEqual([
    {
      realm: 'http-auth@example.org',
      nonce: '7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v',
      opaque: 'FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS',
      algorithm: 'SHA-256',
      qop: ['auth', 'auth-int'],
      stale: false,
      userhash: false,
    },
    expect.objectContaining({ algorithm: 'MD5' }),
  ]);
});

test('skips other schemes and defaults the algorithm to MD5 and qop to none', () => {
  const offered = parseDigestChallenges(['Basic realm="b"', 'Digest realm="r", nonce="n", stale=true, userhash=true, charset=UTF-8, domain="/a /b"']);
  expect(offered).toEqual([
    { realm: 'r', nonce: 'n', algorithm: 'MD5', qop: [], stale: true, userhash: true, charset: 'UTF-8', domain: '/a /b' },
  ]);
});

test('chooses SHA-256 over MD5 whatever the server order, with qop auth', () => {
  const chosen = chooseChallenge(parseDigestChallenges([...rfc7616Challenges].reverse()));
  expect(chosen).toEqual({
    realm: 'http-auth@example.org',
    nonce: '7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v',
    opaque: 'FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS',
    algorithm: 'SHA-256',
    qop: 'auth',
  });
});

test('at equal strength prefers qop auth, then the server order', () => {
  const noQopFirst = parseDigestChallenges(['Digest realm="r", nonce="a"', 'Digest realm="r", nonce="b", qop="auth"']);
  expect(chooseChallenge(noQopFirst).nonce).toBe('b');
  const sessFirst = parseDigestChallenges([
    'Digest realm="r", nonce="a", algorithm=MD5-sess, qop=auth',
    'Digest realm="r", nonce="b", algorithm=MD5, qop=auth',
  ]);
  expect(chooseChallenge(sessFirst)).toMatchObject({ nonce: 'a', algorithm: 'MD5-sess' });
});

test('answers RFC 2069 challenges (no qop) and skips those it cannot answer', () => {
  const chosen = chooseChallenge(parseDigestChallenges([
    'Digest realm="r", nonce="a", algorithm=SHA-512-256, qop=auth',
    'Digest realm="r", nonce="b", algorithm=md5',
  ]));
  expect(chosen).toEqual({ realm: 'r', nonce: 'b', algorithm: 'MD5' });
});

test('algorithm names are case-insensitive', () => {
  expect(supportedAlgorithm('sha-256-SESS')).toBe('SHA-256-sess');
  expect(supportedAlgorithm('md5')).toBe('MD5');
  expect(supportedAlgorithm('SHA-512-256')).toBeUndefined();
});

function chooseError(headers: string[]): MultiAuthError {
  try {
    chooseChallenge(parseDigestChallenges(headers), { user: 'alice', procedure: 'p', step: 0 });
  } catch (error) {
    if (error instanceof MultiAuthError) return error;
    throw error;
  }
  throw new Error('chooseChallenge did not throw');
}

test('only auth-int offered: DIGEST_UNSUPPORTED naming what was offered, with a hint', () => {
  const error = chooseError(['Digest realm="r", nonce="n", algorithm=SHA-256, qop="auth-int"']);
  expect(error.code).toBe('DIGEST_UNSUPPORTED');
  expect(error.message).toBe('no Digest challenge this client can answer: the server offered algorithm SHA-256 with qop auth-int');
  expect(error.details).toEqual(['challenge 1: qop auth-int is not supported']);
  expect(error.hint).toContain('auth-int');
  expect(error.context).toEqual({ user: 'alice', procedure: 'p', step: 0 });
});

test('unknown algorithm or missing nonce: DIGEST_UNSUPPORTED with each challenge explained', () => {
  const error = chooseError(['Digest realm="r", nonce="n", algorithm=SHA-512-256, qop=auth', 'Digest realm="r"']);
  expect(error.code).toBe('DIGEST_UNSUPPORTED');
  expect(error.message).toBe('no Digest challenge this client can answer: the server offered algorithm SHA-512-256, MD5 with qop auth, none');
  expect(error.details).toEqual(['challenge 1: algorithm SHA-512-256 is not supported', 'challenge 2: no nonce']);
  expect(error.hint).toContain('MD5');
  expect(chooseError([]).message).toBe('no Digest challenge to answer');
});
