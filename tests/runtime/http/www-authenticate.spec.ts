import { test, expect } from '@playwright/test';
import { bearerRefusal, parseAuthChallenges } from '../../../src/runtime/http/www-authenticate.js';
import { httpStatusError } from '../../../src/runtime/http/status-error.js';
import { Redactor } from '../../../src/core/redactor.js';

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

test('bearerRefusal reads RFC 6750 errors: code, description, scope, and a hint for the codes it defines', () => {
  expect(bearerRefusal(['Basic realm="x"', 'Bearer realm="api", error="insufficient_scope", error_description="needs admin", scope="admin write"'])).toEqual({
    description: 'insufficient_scope: needs admin (needs scope "admin write")',
    hint: expect.stringContaining('lacks a scope'),
  });
  expect(bearerRefusal(['Bearer error="invalid_token"'])?.hint).toContain('expired or been revoked');
  expect(bearerRefusal(['Bearer error="made_up"'])).toEqual({ description: 'made_up' });
  expect(bearerRefusal(['Bearer realm="api"'])).toBeUndefined();
  expect(bearerRefusal(['Bearer error="__proto__"'])).toEqual({ description: '__proto__' });
});

test('a sign-in answered 403 with insufficient_scope names the scope and does not blame the password', () => {
  const response = { url: 'https://api.test/admin', status: 403, headers: [['WWW-Authenticate', 'Bearer error="insufficient_scope", scope="admin"']] as Array<[string, string]>, body: '' };
  const error = httpStatusError(response, new Redactor(), { user: 'bob' });
  expect(error.details[0]).toBe('the server says: insufficient_scope (needs scope "admin")');
  expect(error.hint).toContain('lacks a scope');
  const plain = httpStatusError({ ...response, headers: [] }, new Redactor(), { user: 'bob' });
  expect(plain.hint).toContain('a role or a scope it lacks');
});
