import { test, expect } from '@playwright/test';
import type { PlanCredentials, RequestTemplate } from '../../../src/compile/plan.js';
import { appendQuery, encodeCookieHeader, mergeBody, mergeCredentials } from '../../../src/runtime/session/merge.js';
import { basicAuthorization } from '../../../src/core/basic-auth.js';

function credentials(extra: Partial<PlanCredentials> = {}): PlanCredentials {
  return { headers: [], cookies: [], query: [], basic: 'none', ...extra };
}

function request(extra: Partial<RequestTemplate> = {}): RequestTemplate {
  return { url: 'https://api.test/login', method: 'POST', headers: [], cookies: [], query: [], ...extra };
}

test('body rule 1: two objects are merged deeply, credentials win, arrays are concatenated', () => {
  expect(mergeBody({ a: 1, nested: { x: 1, keep: true }, list: [1], c: 'req' }, { nested: { x: 2, y: 3 }, list: [2], c: 'cred', d: 4 })).toEqual({
    a: 1,
    nested: { x: 2, keep: true, y: 3 },
    list: [1, 2],
    c: 'cred',
    d: 4,
  });
  expect(Object.keys(mergeBody({ a: 1, b: 2 }, { c: 3, a: 9 }) as object)).toEqual(['a', 'b', 'c']);
});

test('body rule 2: two strings are concatenated, request first', () => {
  expect(mergeBody('grant_type=password', '&scope=read')).toBe('grant_type=password&scope=read');
});

test('body rule 3: different types use the credentials body', () => {
  expect(mergeBody('a=1', { b: 2 })).toEqual({ b: 2 });
  expect(mergeBody({ a: 1 }, 'b=2')).toBe('b=2');
  expect(mergeBody([1], { b: 2 })).toEqual({ b: 2 });
});

test('an absent body on one side gives the other; inputs are not modified', () => {
  expect(mergeBody(undefined, { a: 1 })).toEqual({ a: 1 });
  expect(mergeBody('x', undefined)).toBe('x');
  expect(mergeBody(undefined, undefined)).toBeUndefined();
  const req = { n: { a: 1 } };
  const cred = { n: { b: 2 } };
  const merged = mergeBody(req, cred) as { n: Record<string, number> };
  merged.n.c = 3;
  expect(req).toEqual({ n: { a: 1 } });
  expect(cred).toEqual({ n: { b: 2 } });
});

test('headers: several values kept, same name (any case) takes the credentials values in place', () => {
  const merged = mergeCredentials(
    request({ headers: [{ name: 'Accept', values: ['a/b', 'c/d'] }, { name: 'x-tenant', values: ['req'] }] }),
    credentials({ headers: [{ name: 'X-Tenant', values: ['cred-1', 'cred-2'] }, { name: 'X-Extra', values: ['e'] }] }),
  );
  expect(merged.headers).toEqual([
    { name: 'Accept', values: ['a/b', 'c/d'] },
    { name: 'x-tenant', values: ['cred-1', 'cred-2'] },
    { name: 'X-Extra', values: ['e'] },
  ]);
});

test('cookies and query parameters merge by exact name, values stay raw until encoded', () => {
  const merged = mergeCredentials(
    request({ cookies: [{ name: 'a', values: ['1'] }], query: [{ name: 'q', values: ['x y'] }, { name: 'Q', values: ['big'] }] }),
    credentials({ cookies: [{ name: 'a', values: ['2'] }, { name: 'b', values: ['a b&c'] }], query: [{ name: 'q', values: ['z'] }] }),
  );
  expect(merged.cookies).toEqual([{ name: 'a', values: ['2'] }, { name: 'b', values: ['a b&c'] }]);
  expect(merged.query).toEqual([{ name: 'q', values: ['z'] }, { name: 'Q', values: ['big'] }]);
});

test('merged bodies follow the body rules; a request without body gets the credentials body', () => {
  expect(mergeCredentials(request({ body: { a: 1 } }), credentials({ body: { b: 2 } })).body).toEqual({ a: 1, b: 2 });
  expect(mergeCredentials(request(), credentials({ body: 'x=1' })).body).toBe('x=1');
  const none = mergeCredentials(request(), credentials());
  expect('body' in none).toBe(false);
});

test('HTTP Basic is added from username+password when basic and no Authorization header', () => {
  const basic = credentials({ username: 'alice', password: 'secret', basic: 'sign-in' });
  expect(mergeCredentials(request(), basic).headers).toEqual([{ name: 'Authorization', values: ['Basic YWxpY2U6c2VjcmV0'] }]);
  const withAuth = mergeCredentials(request({ headers: [{ name: 'authorization', values: ['Bearer x'] }] }), basic);
  expect(withAuth.headers).toEqual([{ name: 'authorization', values: ['Bearer x'] }]);
  expect(mergeCredentials(request(), { ...basic, basic: 'none' }).headers).toEqual([]);
  expect(mergeCredentials(request(), credentials({ username: 'alice', basic: 'sign-in' })).headers).toEqual([]);
});

test('basicAuthorization encodes UTF-8 user:password', () => {
  expect(basicAuthorization('Aladdin', 'open sesame')).toBe('Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==');
  expect(basicAuthorization('ü', 'p:w')).toBe(`Basic ${Buffer.from('ü:p:w', 'utf8').toString('base64')}`);
});

test('mergeCredentials does not modify its inputs and keeps other request fields', () => {
  const req = request({ headers: [{ name: 'A', values: ['1'] }], timeout: 5, followRedirects: 0 });
  const cred = credentials({ headers: [{ name: 'A', values: ['2'] }] });
  const merged = mergeCredentials(req, cred);
  merged.headers[0]?.values.push('3');
  expect(req.headers).toEqual([{ name: 'A', values: ['1'] }]);
  expect(cred.headers).toEqual([{ name: 'A', values: ['2'] }]);
  expect(merged.timeout).toBe(5);
  expect(merged.followRedirects).toBe(0);
});

test('cookie values are URL-encoded exactly once, several values kept', () => {
  expect(encodeCookieHeader([{ name: 'sid', values: ['a b&c'] }, { name: 'multi', values: ['1', '2'] }])).toBe('sid=a%20b%26c; multi=1; multi=2');
  expect(encodeCookieHeader([{ name: 'pct', values: ['a%20b'] }])).toBe('pct=a%2520b');
  expect(encodeCookieHeader([])).toBe('');
});

test('query parameters are appended, encoded once, before the fragment', () => {
  expect(appendQuery('https://api.test/x', [{ name: 'q', values: ['a b&c'] }])).toBe('https://api.test/x?q=a%20b%26c');
  expect(appendQuery('https://api.test/x?page=2#top', [{ name: 'q', values: ['1', '2'] }])).toBe('https://api.test/x?page=2&q=1&q=2#top');
  expect(appendQuery('https://api.test/x?', [{ name: 'a b', values: ['='] }])).toBe('https://api.test/x?a%20b=%3D');
  expect(appendQuery('https://api.test/x?a=1&', [{ name: 'b', values: ['2'] }])).toBe('https://api.test/x?a=1&b=2');
  expect(appendQuery('https://api.test/x', [])).toBe('https://api.test/x');
});

test('mergeCredentials shares the lists it does not change and copies those it does; the inputs stay as they were', () => {
  const request: RequestTemplate = {
    url: 'https://api.test/login',
    method: 'POST',
    headers: [{ name: 'Accept', values: ['application/json'] }],
    cookies: [{ name: 'lang', values: ['en'] }],
    query: [],
  };
  const before = structuredClone(request);
  const plain = mergeCredentials(request, { headers: [], cookies: [], query: [], basic: 'none' });
  expect(plain.headers).toBe(request.headers);
  expect(plain.cookies).toBe(request.cookies);
  const basic = mergeCredentials(request, { headers: [], cookies: [{ name: 'lang', values: ['de'] }], query: [], basic: 'sign-in', username: 'alice', password: 'pw' });
  expect(basic.headers.map((h) => h.name)).toEqual(['Accept', 'Authorization']);
  expect(basic.cookies).toEqual([{ name: 'lang', values: ['de'] }]);
  expect(request).toEqual(before);
});
