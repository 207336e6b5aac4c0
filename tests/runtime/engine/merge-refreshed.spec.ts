import { test, expect } from '@playwright/test';
import { mergeRefreshed } from '../../../src/runtime/engine/refresh-merge.js';
import { makeTestSession } from '../../support/session.js';

const session = makeTestSession;

const previous = session({
  headers: { authorization: ['Bearer old'], 'X-Id-Token': ['old-id'] },
  cookies: [{ name: 'sid', value: 'old-sid' }, { name: 'csrf', value: 'old-csrf' }],
  query: { api_key: ['old-key'], v: ['1'] },
  body: { merge: { a: 1 }, set: { token: 'old-body', keep: 'k' } },
  origins: [{ origin: 'https://a.test', localStorage: [{ name: 'x', value: '1' }] }],
  digest: { username: 'alice', password: 'pw', nonce: 'n1' },
  createdAt: 1000,
  expiresAt: 2000,
  variables: { access_token: 'old', refresh_token: 'rt-old', id_token: 'old-id' },
});

const refreshed = session({
  headers: { Authorization: ['Bearer new'] },
  cookies: [{ name: 'sid', value: 'new-sid' }],
  query: { api_key: ['new-key'] },
  body: { set: { token: 'new-body' } },
  createdAt: 5000,
  expiresAt: 9000,
  variables: { access_token: 'new' },
  origin: 'refreshed',
});

test('keep: false uses the refreshed session as is', () => {
  expect(mergeRefreshed(previous, refreshed, false)).toEqual(refreshed);
});

test('keep: true overrides by name and keeps what was not renewed', () => {
  const merged = mergeRefreshed(previous, refreshed, true);
  expect(merged.headers).toEqual({ 'X-Id-Token': ['old-id'], Authorization: ['Bearer new'] });
  expect(merged.cookies).toEqual([{ name: 'csrf', value: 'old-csrf' }, { name: 'sid', value: 'new-sid' }]);
  expect(merged.query).toEqual({ api_key: ['new-key'], v: ['1'] });
  expect(merged.body).toEqual({ set: { token: 'new-body', keep: 'k' } });
  expect(merged.variables).toEqual({ access_token: 'new', refresh_token: 'rt-old', id_token: 'old-id' });
  expect(merged.origins).toEqual(previous.origins);
  expect(merged.digest).toEqual(previous.digest);
  expect([merged.createdAt, merged.expiresAt, merged.origin]).toEqual([5000, 9000, 'refreshed']);
});

test('keep: true modifies neither input', () => {
  const before = structuredClone(previous);
  const beforeRefreshed = structuredClone(refreshed);
  const merged = mergeRefreshed(previous, refreshed, true);
  merged.headers['X-Id-Token']?.push('mutated');
  merged.cookies[0]!.value = 'mutated';
  expect(previous).toEqual(before);
  expect(refreshed).toEqual(beforeRefreshed);
});
