import { test, expect } from '@playwright/test';
import { MultiAuthError } from '../../../src/core/errors.js';
import type { PlanInjection } from '../../../src/compile/plan.js';
import { inject, resolveInjectionValue } from '../../../src/runtime/engine/inject.js';
import { makeTestSession } from '../../support/session.js';

const session = makeTestSession;

function inj(extra: Partial<PlanInjection> & Pick<PlanInjection, 'location' | 'key'>): PlanInjection {
  return { origin: ['procedures', 0, 'injections', 0], ...extra };
}

test('header: a prefix ending in a letter gets one space', () => {
  const s = session();
  inject(s, inj({ location: 'header', key: 'Authorization', prefix: 'Bearer' }), 'abc');
  expect(s.headers).toEqual({ Authorization: ['Bearer abc'] });
});

test('header: other prefixes are used as written', () => {
  for (const [prefix, expected] of [
    ['Bearer ', 'Bearer abc'],
    ['Token=', 'Token=abc'],
    ['v1', 'v1abc'],
    ['Jéton', 'Jéton abc'],
    [undefined, 'abc'],
  ] as const) {
    const s = session();
    inject(s, inj({ location: 'header', key: 'X-Auth', prefix }), 'abc');
    expect(s.headers['X-Auth']).toEqual([expected]);
  }
});

test('header: replaces a header of the same name, ignoring case', () => {
  const s = session({ headers: { authorization: ['Basic old'], 'X-Keep': ['1'] } });
  inject(s, inj({ location: 'header', key: 'Authorization', prefix: 'Bearer' }), 'new');
  expect(s.headers).toEqual({ 'X-Keep': ['1'], Authorization: ['Bearer new'] });
});

test('cookie: prefix + value as is, replacing the same name', () => {
  const s = session({ cookies: [{ name: 'sid', value: 'old', domain: 'a.test' }, { name: 'other', value: 'x' }] });
  inject(s, inj({ location: 'cookie', key: 'sid', prefix: 'v1:' }), 'a b');
  expect(s.cookies).toEqual([{ name: 'other', value: 'x' }, { name: 'sid', value: 'v1:a b' }]);
});

test('query: prefix + value as is, replacing the same name', () => {
  const s = session({ query: { api_key: ['old'], keep: ['1'] } });
  inject(s, inj({ location: 'query', key: 'api_key', prefix: 'Bearer' }), 'k');
  expect(s.query).toEqual({ api_key: ['Bearerk'], keep: ['1'] });
});

test('body: the dot path is recorded in body.set', () => {
  const s = session();
  inject(s, inj({ location: 'body', key: 'auth.token', prefix: 'x-' }), 'v');
  expect(s.body).toEqual({ set: { 'auth.token': 'x-v' } });
});

test('resolveInjectionValue: the named variable, else the first extraction', () => {
  expect(resolveInjectionValue(inj({ location: 'header', key: 'A', variable: 'tok' }), { tok: 't', other: 'o' }, 'first', { user: 'alice' })).toBe('t');
  expect(resolveInjectionValue(inj({ location: 'header', key: 'A' }), { tok: 't' }, 'first', { user: 'alice' })).toBe('first');
  expect(resolveInjectionValue(inj({ location: 'header', key: 'A', variable: 'empty' }), { empty: '' }, undefined, { user: 'alice' })).toBe('');
});

test('resolveInjectionValue: an unset variable is an error listing names, never values', () => {
  const secret = 'very-secret-token';
  let error: unknown;
  try {
    resolveInjectionValue(inj({ location: 'header', key: 'Authorization', variable: 'acess_token' }), { access_token: secret }, secret, {
      user: 'alice',
      procedure: 'login',
    });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(MultiAuthError);
  const e = error as MultiAuthError;
  expect(e.code).toBe('INJECTION_VARIABLE_UNSET');
  expect(e.path).toEqual(['procedures', 0, 'injections', 0]);
  const text = e.render();
  expect(text).toContain('"acess_token"');
  expect(text).toContain('variables set: access_token');
  expect(text).toContain('user "alice", procedure "login"');
  expect(text).not.toContain(secret);
});

test('resolveInjectionValue: no variable and nothing extracted is an error', () => {
  expect(() => resolveInjectionValue(inj({ location: 'cookie', key: 'sid' }), {}, undefined, { user: 'bob' })).toThrow(
    /names no variable and no extraction succeeded/,
  );
});

test('browser storage injections write an item of the origin\'s storage, replacing one of the same name', () => {
  const s = session();
  inject(s, inj({ location: 'browser_session_storage', key: 'msal.idtoken', storageOrigin: 'https://app.test' }), 'a');
  inject(s, inj({ location: 'browser_session_storage', key: 'msal.idtoken', storageOrigin: 'https://app.test' }), 'b');
  inject(s, inj({ location: 'browser_local_storage', key: 'token', prefix: 'Bearer ', storageOrigin: 'https://app.test' }), 'c');
  expect(s.origins).toEqual([{ origin: 'https://app.test', localStorage: [{ name: 'token', value: 'Bearer c' }], sessionStorage: [{ name: 'msal.idtoken', value: 'b' }] }]);
  expect(s.headers).toEqual({});
});
