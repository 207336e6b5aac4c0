import { test, expect } from '@playwright/test';
import { parseAuthChallenges } from '../../../../src/runtime/protocols/digest/www-authenticate.js';

test('reads several challenges from one header value, Basic mixed in', () => {
  expect(parseAuthChallenges(['Basic realm="simple", Digest realm="r", nonce="n", qop="auth"'])).toEqual([
    { scheme: 'Basic', params: { realm: 'simple' } },
    { scheme: 'Digest', params: { realm: 'r', nonce: 'n', qop: 'auth' } },
  ]);
});

test('keeps commas, equals signs and escaped quotes inside quoted values', () => {
  const [digest] = parseAuthChallenges(['Digest realm="a, b=c \\"quoted\\"", nonce="x,y", qop="auth,auth-int"']);
  expect(digest?.params).toEqual({ realm: 'a, b=c "quoted"', nonce: 'x,y', qop: 'auth,auth-int' });
});

test('reads unquoted values whole, lower-cases parameter names, keeps the first duplicate', () => {
  const [digest] = parseAuthChallenges(['DIGEST Realm=plain, NONCE=abc/def+g==, Algorithm=SHA-256,stale=TRUE, realm=second']);
  expect(digest?.scheme).toBe('DIGEST');
  expect(digest?.params).toEqual({ realm: 'plain', nonce: 'abc/def+g==', algorithm: 'SHA-256', stale: 'TRUE' });
});

test('reads token68 challenges and challenges with no parameters', () => {
  expect(parseAuthChallenges(['Negotiate abc+/de==, Bearer', 'NTLM'])).toEqual([
    { scheme: 'Negotiate', token68: 'abc+/de==', params: {} },
    { scheme: 'Bearer', params: {} },
    { scheme: 'NTLM', params: {} },
  ]);
});

test('reads every header value in order, tolerating line breaks and empty list elements', () => {
  const challenges = parseAuthChallenges([
    'Digest\n    realm="one",\n    nonce="1",,',
    ', Digest realm="two", nonce="2"',
  ]);
  expect(challenges.map((c) => c.params.realm)).toEqual(['one', 'two']);
});
