import { test, expect } from '@playwright/test';
import type { PlanCredentials, PlanUser } from '../../../src/compile/plan.js';
import { Redactor } from '../../../src/core/redactor.js';
import { applySession, emptySession, newSession, sessionSecrets, withStaticCredentials, type OutgoingRequest } from '../../../src/runtime/session/apply.js';
import { inject } from '../../../src/runtime/engine/inject.js';
import { makeTestSession } from '../../support/session.js';

const session = makeTestSession;

function get(url = 'https://api.test/me', headers: OutgoingRequest['headers'] = []): OutgoingRequest {
  return { method: 'GET', url, headers };
}

function credentials(extra: Partial<PlanCredentials> = {}): PlanCredentials {
  return { headers: [], cookies: [], query: [], basic: 'none', ...extra };
}

const user: PlanUser = { name: 'alice', origin: ['users', 0], source: { kind: 'user' }, credentials: credentials(), variables: {}, mtls: false };

test('headers: session headers are added, several values joined with ", "; the request wins on the same name', () => {
  const s = session({ headers: { Authorization: ['Bearer s'], 'X-Multi': ['1', '2'] } });
  const out = applySession(s, get(undefined, [['authorization', 'Bearer mine'], ['Accept', 'x']]));
  expect(out.headers).toEqual([
    ['authorization', 'Bearer mine'],
    ['Accept', 'x'],
    ['X-Multi', '1, 2'],
  ]);
  expect(applySession(s, get()).headers).toEqual([
    ['Authorization', 'Bearer s'],
    ['X-Multi', '1, 2'],
  ]);
});

test('cookies: merged into the Cookie header, the request wins on the same name', () => {
  const s = session({ cookies: [{ name: 'sid', value: 'session' }, { name: 'lang', value: 'fr' }] });
  expect(applySession(s, get()).headers).toEqual([['Cookie', 'sid=session; lang=fr']]);
  expect(applySession(s, get(undefined, [['cookie', 'lang=en']])).headers).toEqual([['cookie', 'lang=en; sid=session']]);
});

test('cookies: domain, path and secure are honoured', () => {
  const s = session({
    cookies: [
      { name: 'host', value: '1', domain: 'api.test', path: '/' },
      { name: 'other', value: '2', domain: 'other.test' },
      { name: 'admin', value: '3', domain: '.api.test', path: '/admin' },
      { name: 'sec', value: '4', domain: 'api.test', secure: true },
    ],
  });
  expect(applySession(s, get('https://sub.api.test/admin/x')).headers).toEqual([['Cookie', 'host=1; admin=3; sec=4']]);
  expect(applySession(s, get('http://api.test/administrator')).headers).toEqual([['Cookie', 'host=1']]);
  expect(applySession(s, get('http://localhost:3000/')).headers).toEqual([]);
});

test('query: appended URL-encoded once, after an existing query and before the fragment; the request wins', () => {
  const s = session({ query: { api_key: ['a b&c'], page: ['9'] } });
  expect(applySession(s, get('https://api.test/items?page=2#frag')).url).toBe('https://api.test/items?page=2&api_key=a%20b%26c#frag');
  expect(applySession(s, get('https://api.test/items')).url).toBe('https://api.test/items?api_key=a%20b%26c&page=9');
});

test('body: set paths are written into a JSON object body (by content type), Content-Length dropped', () => {
  const s = session({ body: { set: { 'auth.token': 't"1', csrf: 'c' } } });
  const out = applySession(s, {
    method: 'POST',
    url: 'https://api.test/x',
    headers: [['Content-Type', 'application/json; charset=utf-8'], ['Content-Length', '9']],
    body: '{"a":[1]}',
  });
  expect(JSON.parse(out.body as string)).toEqual({ a: [1], auth: { token: 't"1' }, csrf: 'c' });
  expect(out.headers).toEqual([['Content-Type', 'application/json; charset=utf-8']]);
});

test('body: set paths are written into a form body, sniffed without content type, encoded once', () => {
  const s = session({ body: { set: { token: 'a b&c', other: 'o' } } });
  const out = applySession(s, { method: 'POST', url: 'https://api.test/x', headers: [], body: 'x=1&token=old&token=old2' });
  expect(out.body).toBe('x=1&token=a%20b%26c&other=o');
});

test('body: a JSON body is sniffed without content type; text bodies get no set values', () => {
  const s = session({ body: { set: { token: 't' } } });
  expect(applySession(s, { method: 'POST', url: 'https://a.test', headers: [], body: '{"a":1}' }).body).toBe('{"a":1,"token":"t"}');
  expect(applySession(s, { method: 'POST', url: 'https://a.test', headers: [['content-type', 'text/plain']], body: 'a=1' }).body).toBe('a=1');
  const form = [['Content-Type', 'application/x-www-form-urlencoded']] as Array<[string, string]>;
  expect(applySession(s, { method: 'POST', url: 'https://a.test', headers: form, body: 'weird text' }).body).toBe('weird text&token=t');
});

test('body: merge follows the spec rules', () => {
  const json = [['Content-Type', 'application/json']] as Array<[string, string]>;
  expect(
    JSON.parse(applySession(session({ body: { merge: { tenant: 'acme', n: { b: 2 } }, set: {} } }), { method: 'POST', url: 'https://a.test', headers: json, body: '{"n":{"a":1}}' }).body as string),
  ).toEqual({ n: { a: 1, b: 2 }, tenant: 'acme' });
  expect(applySession(session({ body: { merge: '&tenant=acme', set: {} } }), { method: 'POST', url: 'https://a.test', headers: [], body: 'a=1' }).body).toBe(
    'a=1&tenant=acme',
  );
  expect(applySession(session({ body: { merge: 'replaced', set: {} } }), { method: 'POST', url: 'https://a.test', headers: json, body: '{"a":1}' }).body).toBe('replaced');
});

test('body: a request without a body gets none; an unchanged body keeps its bytes and headers', () => {
  const s = session({ body: { merge: { a: 1 }, set: { token: 't' } } });
  const out = applySession(s, get());
  expect('body' in out).toBe(false);
  const untouched = applySession(session(), { method: 'POST', url: 'https://a.test', headers: [['Content-Length', '12']], body: '{ "a" : 1 }' });
  expect(untouched.body).toBe('{ "a" : 1 }');
  expect(untouched.headers).toEqual([['Content-Length', '12']]);
});

test('applySession does not modify the request', () => {
  const request: OutgoingRequest = { method: 'POST', url: 'https://a.test/', headers: [['Cookie', 'a=1']], body: '{}' };
  applySession(session({ headers: { X: ['1'] }, cookies: [{ name: 'b', value: '2' }], query: { q: ['1'] }, body: { set: { t: 'x' } } }), request);
  expect(request).toEqual({ method: 'POST', url: 'https://a.test/', headers: [['Cookie', 'a=1']], body: '{}' });
});

test('newSession folds static credentials in, cookies encoded once, Basic when asked', () => {
  const s = newSession(
    user,
    credentials({
      username: 'alice',
      password: 'secret',
      basic: 'requests',
      headers: [{ name: 'X-Tenant', values: ['acme'] }, { name: 'x-tenant', values: ['beta'] }],
      cookies: [{ name: 'pref', values: ['a b&c'] }],
      query: [{ name: 'v', values: ['1', '2'] }],
      body: { tenant: 'acme' },
    }),
    1234,
  );
  expect(s).toEqual({
    user: 'alice',
    headers: { 'X-Tenant': ['acme', 'beta'], Authorization: ['Basic YWxpY2U6c2VjcmV0'] },
    cookies: [{ name: 'pref', value: 'a%20b%26c' }],
    query: { v: ['1', '2'] },
    body: { merge: { tenant: 'acme' }, set: {} },
    origins: [],
    createdAt: 1234,
    expiresAt: null,
    variables: {},
    origin: 'signed-in',
  });
  expect(applySession(s, get()).headers).toContainEqual(['Cookie', 'pref=a%20b%26c']);
  const noBasic = newSession(user, credentials({ username: 'a', password: 'b', headers: [{ name: 'authorization', values: ['Token x'] }], basic: 'requests' }), 0);
  expect(noBasic.headers).toEqual({ authorization: ['Token x'] });
  expect(newSession(user, credentials({ username: 'a', password: 'b' }), 0).headers).toEqual({});
});

test('sessionSecrets lists every secret value, so a redactor masks them all', () => {
  const s = newSession(user, credentials({ username: 'alice', password: 'pass-word-1', basic: 'requests', cookies: [{ name: 'c', values: ['cookie val'] }], body: { deep: ['body-secret'] } }), 0);
  inject(s, { location: 'header', key: 'X-Token', prefix: 'Bearer', origin: [] }, 'header-token');
  inject(s, { location: 'query', key: 'k', origin: [] }, 'query-secret');
  inject(s, { location: 'body', key: 'b', origin: [] }, 'set-secret');
  s.variables = { refresh_token: 'refresh-secret' };
  s.origins = [{ origin: 'https://a.test', localStorage: [{ name: 'jwt', value: 'storage-secret' }] }];
  s.digest = { username: 'alice', password: 'digest-pass' };
  const secrets = sessionSecrets(s);
  for (const value of ['pass-word-1', 'cookie val', 'cookie%20val', 'body-secret', 'Bearer header-token', 'header-token', 'query-secret', 'set-secret', 'refresh-secret', 'storage-secret', 'digest-pass']) {
    expect(secrets).toContain(value);
  }
  expect(secrets).not.toContain('alice');
  expect(secrets).not.toContain('');
  const printed = new Redactor().add(...secrets).redact(`Authorization: ${s.headers.Authorization?.[0]} X-Token: Bearer header-token; pw pass-word-1`);
  expect(printed).not.toContain('header-token');
  expect(printed).not.toContain('pass-word-1');
  expect(printed).not.toContain('YWxpY2U6');
});

test('withStaticCredentials folds the config credentials into what a sign-in produced; what it produced wins on a name', () => {
  const produced = emptySession('alice', 77);
  produced.headers = { authorization: ['Bearer tok'] };
  produced.cookies = [{ name: 'sid', value: 's-1' }];
  produced.query = { lang: ['de'] };
  produced.body.set = { access_token: 'tok' };
  produced.expiresAt = 999;
  produced.variables = { refresh_token: 'r-1' };
  const before = structuredClone(produced);
  const static_ = credentials({
    username: 'alice', password: 'pw', basic: 'requests',
    headers: [{ name: 'X-Tenant', values: ['acme'] }, { name: 'Authorization', values: ['Token static'] }],
    cookies: [{ name: 'sid', values: ['static'] }, { name: 'pref', values: ['a b'] }],
    query: [{ name: 'lang', values: ['en'] }, { name: 'k', values: ['v'] }],
    body: { tenant: 'acme' },
  });
  const s = withStaticCredentials(produced, static_);
  expect(s.headers).toEqual({ 'X-Tenant': ['acme'], authorization: ['Bearer tok'] });
  expect(s.cookies).toEqual([{ name: 'pref', value: 'a%20b' }, { name: 'sid', value: 's-1' }]);
  expect(s.query).toEqual({ lang: ['de'], k: ['v'] });
  expect(s.body).toEqual({ merge: { tenant: 'acme' }, set: { access_token: 'tok' } });
  expect(s).toMatchObject({ user: 'alice', createdAt: 77, expiresAt: 999, variables: { refresh_token: 'r-1' } });
  expect(produced).toEqual(before);
  // Basic by the `requests` rule when nothing set Authorization; a digest challenge gets its password back.
  const basic = withStaticCredentials(emptySession('alice', 0), credentials({ username: 'alice', password: 'pw', basic: 'requests' }));
  expect(basic.headers).toEqual({ Authorization: [`Basic ${Buffer.from('alice:pw').toString('base64')}`] });
  const digest = withStaticCredentials({ ...emptySession('alice', 0), digest: { realm: 'r', nonce: 'n' } }, credentials({ username: 'alice', password: 'pw' }));
  expect(digest.digest).toEqual({ realm: 'r', nonce: 'n', username: 'alice', password: 'pw' });
  expect(digest.headers).toEqual({});
});

test('a query parameter or header named __proto__ (from the config or a cache file) stays a property', () => {
  const fromFile = JSON.parse('{"__proto__": ["cached"]}') as Record<string, string[]>;
  const s = withStaticCredentials(
    { ...emptySession('alice', 0), headers: fromFile },
    credentials({ query: [{ name: '__proto__', values: ['x'] }], headers: [{ name: '__proto__', values: ['y'] }] }),
  );
  for (const map of [s.query, s.headers]) {
    expect(Object.getPrototypeOf(map)).toBe(Object.prototype);
    expect(Object.hasOwn(map, '__proto__')).toBe(true);
  }
  expect(Object.getOwnPropertyDescriptor(s.headers, '__proto__')?.value).toEqual(['cached']);
});

test('static cookies with attributes go only where a browser would send them; storage credentials are secrets of the session', () => {
  const s = withStaticCredentials(emptySession('alice', 0), credentials({
    cookies: [
      { name: 'everywhere', values: ['e'] },
      { name: 'api', values: ['a'], domain: 'api.test', path: '/v1', sameSite: 'Strict' },
      { name: 'tls', values: ['t'], domain: 'api.test', secure: true },
    ],
    storage: { localStorage: [{ name: 'token', value: 'local-secret-1' }], sessionStorage: [{ name: 'msal', value: 'session-secret-2' }] },
  }));
  const cookieOf = (url: string) => applySession(s, { method: 'GET', url, headers: [] }).headers.find(([name]) => name === 'Cookie')?.[1];
  expect(cookieOf('https://api.test/v1/me')).toBe('everywhere=e; api=a; tls=t');
  expect(cookieOf('http://api.test/v1/me')).toBe('everywhere=e; api=a');
  expect(cookieOf('https://api.test/v2')).toBe('everywhere=e; tls=t');
  expect(cookieOf('https://other.test/v1')).toBe('everywhere=e');
  expect(s.scopeStorage).toEqual({ localStorage: [{ name: 'token', value: 'local-secret-1' }], sessionStorage: [{ name: 'msal', value: 'session-secret-2' }] });
  expect(sessionSecrets(s)).toEqual(expect.arrayContaining(['local-secret-1', 'session-secret-2']));
});
