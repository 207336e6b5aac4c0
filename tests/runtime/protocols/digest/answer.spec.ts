import { test, expect } from '@playwright/test';
import { answerChallenge } from '../../../../src/runtime/protocols/digest/answer.js';
import type { DigestSessionState } from '../../../../src/runtime/session/session.js';

const signedIn: DigestSessionState = {
  username: 'alice',
  password: 'secret',
  realm: 'r',
  nonce: 'n1',
  opaque: 'o',
  algorithm: 'SHA-256',
  qop: 'auth',
  nc: 3,
  origin: 'http://127.0.0.1:8080',
};

test('pre-emptive: the known nonce with the next nonce count, the state left untouched', () => {
  const before = structuredClone(signedIn);
  const answer = answerChallenge(signedIn, { method: 'POST', url: 'http://127.0.0.1:8080/api/items?x=1' });
  expect(answer?.authorization).toMatch(/^Digest username="alice", realm="r", uri="\/api\/items\?x=1", algorithm=SHA-256, nonce="n1", nc=00000004, /);
  expect(answer?.authorization).toContain('opaque="o"');
  expect(answer?.state).toEqual({ ...signedIn, nc: 4 });
  expect(signedIn).toEqual(before);
});

test('nothing pre-emptive for another origin or without a known nonce', () => {
  expect(answerChallenge(signedIn, { method: 'GET', url: 'http://127.0.0.1:9090/' })).toBeUndefined();
  expect(answerChallenge(signedIn, { method: 'GET', url: 'https://127.0.0.1:8080/' })).toBeUndefined();
  expect(answerChallenge({ username: 'alice', password: 'secret' }, { method: 'GET', url: 'http://127.0.0.1:8080/' })).toBeUndefined();
});

test('a fresh challenge is answered with nonce count 1 and becomes the state, for the request\'s origin', () => {
  const answer = answerChallenge(signedIn, { method: 'GET', url: 'http://other.test/x' }, [
    'Basic realm="b"',
    'Digest realm="r2", nonce="n2", algorithm=MD5-sess, qop="auth", userhash=true',
  ]);
  expect(answer?.authorization).toContain('nc=00000001');
  expect(answer?.authorization).toContain('userhash=true');
  expect(answer?.state).toEqual({
    username: 'alice', password: 'secret', realm: 'r2', nonce: 'n2', algorithm: 'MD5-sess', qop: 'auth', nc: 1, userhash: true, origin: 'http://other.test',
  });
});

test('headers without a Digest challenge give nothing to answer; an unanswerable one throws', () => {
  expect(answerChallenge(signedIn, { method: 'GET', url: signedIn.origin as string }, ['Basic realm="b"'])).toBeUndefined();
  expect(() => answerChallenge(signedIn, { method: 'GET', url: signedIn.origin as string }, ['Digest realm="r", nonce="n", qop="auth-int"'], { user: 'alice' }))
    .toThrow(expect.objectContaining({ code: 'DIGEST_UNSUPPORTED', context: { user: 'alice' } }));
});

test('a state from an RFC 2069 server (no qop) answers without nc and cnonce', () => {
  const { qop: _qop, ...noQop } = signedIn;
  const answer = answerChallenge({ ...noQop, algorithm: 'MD5' }, { method: 'GET', url: 'http://127.0.0.1:8080/' });
  expect(answer?.authorization).not.toContain('nc=');
  expect(answer?.authorization).not.toContain('cnonce=');
  expect(answer?.state.nc).toBe(4);
});
