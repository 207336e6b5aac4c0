import { test, expect } from '@playwright/test';
import { applySession, changesRequests, type OutgoingRequest } from '../../../src/runtime/session/apply.js';
import type { OutgoingBody } from '../../../src/runtime/session/apply-body.js';
import { cookiesForUrl } from '../../../src/runtime/session/cookie-match.js';
import { combineHeaders, sessionHeaders } from '../../../src/runtime/session/headers.js';
import { makeTestSession as session } from '../../support/session.js';

/**
 * What every sender of a session relies on (authedRequest, browser routing, scripts reading
 * `multiauth login --json`): one header rule, cookies left out of the `Cookie` header when the
 * sender's own jar holds them, and bodies kept in the form the sender holds them.
 */

function post<Body extends OutgoingBody>(body: Body, headers: OutgoingRequest['headers'] = []): OutgoingRequest<Body> {
  return { method: 'POST', url: 'https://api.test/x', headers, body };
}

test('combineHeaders: one field per name ignoring case, first spelling and place kept, values joined', () => {
  expect(
    combineHeaders([
      ['Accept', 'a'],
      ['X-One', '1'],
      ['accept', 'b'],
      ['Cookie', 'x=1'],
      ['cookie', 'y=2'],
      ['ACCEPT', 'c'],
    ]),
  ).toEqual([
    ['Accept', 'a, b, c'],
    ['X-One', '1'],
    ['Cookie', 'x=1; y=2'],
  ]);
  expect(combineHeaders([['Cookie', ''], ['cookie', 'a=1']])).toEqual([['Cookie', 'a=1']]);
});

test('combineHeaders does not modify its input', () => {
  const input: Array<[string, string]> = [['A', '1'], ['a', '2']];
  combineHeaders(input);
  expect(input).toEqual([['A', '1'], ['a', '2']]);
});

test('sessionHeaders: what the session adds to every request, as it goes on the wire', () => {
  expect(sessionHeaders(session({ headers: { Authorization: ['Basic YWxpY2U6eA=='], 'X-Role': ['a', 'b'] } }))).toEqual([
    ['Authorization', 'Basic YWxpY2U6eA=='],
    ['X-Role', 'a, b'],
  ]);
});

test("the request's own repeated fields are combined by the same rule", () => {
  const out = applySession(session({ cookies: [{ name: 's', value: '1' }] }), {
    method: 'GET',
    url: 'https://api.test/',
    headers: [['Accept', 'a'], ['Cookie', 'own=1'], ['accept', 'b'], ['Cookie', 'two=2']],
  });
  expect(out.headers).toEqual([
    ['Accept', 'a, b'],
    ['Cookie', 'own=1; two=2; s=1'],
  ]);
});

test('cookieJar: when the sender keeps the cookies in its own jar, none go in the Cookie header', () => {
  const s = session({
    cookies: [
      { name: 'sid', value: 'jar', domain: 'api.test', path: '/' },
      { name: 'token', value: 'injected' },
    ],
  });
  const url = 'https://api.test/me';
  expect(applySession(s, { method: 'GET', url, headers: [] }).headers).toEqual([['Cookie', 'sid=jar; token=injected']]);
  expect(applySession(s, { method: 'GET', url, headers: [] }, { cookieJar: true }).headers).toEqual([]);
  expect(applySession(s, { method: 'GET', url, headers: [['cookie', 'sid=jar']] }, { cookieJar: true }).headers).toEqual([['cookie', 'sid=jar']]);
});

test('cookiesForUrl: matching cookies, the first of each name', () => {
  const cookies = [
    { name: 'a', value: '1', domain: 'other.test' },
    { name: 'a', value: '2', domain: 'api.test' },
    { name: 'a', value: '3' },
    { name: 'b', value: '4' },
  ];
  expect(cookiesForUrl(cookies, 'https://api.test/').map((c) => c.value)).toEqual(['2', '4']);
  expect(cookiesForUrl(cookies, 'not a url').map((c) => c.value)).toEqual(['3', '4']);
});

test('query: a name the URL already has wins, whatever put it there; values encoded once', () => {
  const s = session({ query: { access_token: ['t'], scope: ['a b'] } });
  expect(applySession(s, { method: 'GET', url: 'https://api.test/x?access_token=mine', headers: [] }).url).toBe(
    'https://api.test/x?access_token=mine&scope=a%20b',
  );
});

test('body: JSON data held as a value merges and takes set paths, and stays a value', () => {
  const s = session({ body: { merge: { tenant: 'acme', n: { b: 2 } }, set: { 'auth.token': 't' } } });
  const input = post({ json: { n: { a: 1 } } });
  const out = applySession(s, input);
  expect(out.body).toEqual({ json: { n: { a: 1, b: 2 }, tenant: 'acme', auth: { token: 't' } } });
  expect(input.body).toEqual({ json: { n: { a: 1 } } });
  expect(applySession(s, post({ json: null })).body).toEqual({ json: null });
  expect(applySession(session({ body: { merge: { a: 1 }, set: {} } }), post({ json: [1] })).body).toEqual({ json: { a: 1 } });
});

test('body: form fields held as a value merge an object credentials body and take set fields by name', () => {
  const s = session({ body: { merge: { tenant: 'acme' }, set: { 'auth.token': 't' } } });
  expect(applySession(s, post({ form: { name: 'x' } })).body).toEqual({ form: { name: 'x', tenant: 'acme', 'auth.token': 't' } });
});

test('body: a text body is changed as text, and only a changed text body drops Content-Length', () => {
  const s = session({ body: { set: { token: 't' } } });
  const text = applySession(s, post('a=1', [['Content-Length', '3']]));
  expect(text.body).toBe('a=1&token=t');
  expect(text.headers).toEqual([]);
  const value = applySession(s, post({ json: { a: 1 } }, [['Content-Length', '7']]));
  expect(value.headers).toEqual([['Content-Length', '7']]);
});

test('body: an empty body gets nothing, for every sender alike', () => {
  const s = session({ body: { merge: '&tenant=acme', set: { token: 't' } } });
  expect(applySession(s, post('')).body).toBe('');
});

test('changesRequests: only sessions that add something the sender does not carry already', () => {
  expect(changesRequests(session(), false)).toBe(false);
  expect(changesRequests(session({ headers: { A: ['1'] } }), true)).toBe(true);
  expect(changesRequests(session({ query: { q: ['1'] } }), true)).toBe(true);
  expect(changesRequests(session({ body: { set: { t: 'x' } } }), true)).toBe(true);
  expect(changesRequests(session({ body: { merge: { a: 1 }, set: {} } }), true)).toBe(true);
  const cookies = session({ cookies: [{ name: 'sid', value: '1', domain: 'api.test' }, { name: 'token', value: '1' }] });
  expect(changesRequests(cookies, false)).toBe(true);
  expect(changesRequests(cookies, true)).toBe(false);
});
