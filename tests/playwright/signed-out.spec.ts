import { test, expect } from '@playwright/test';
import { describeTrigger, signedOutBy } from '../../src/playwright/signed-out.js';

const RULE = { onStatus: [401, 403], onRedirect: ['/accounts/login/**', '/login', 'https://sso.test/realms/*/auth'] };
const FROM = 'https://app.test/admin/';

test('a status of the rule, or a redirect to a URL its globs match, means signed out; the query is never matched', () => {
  expect(signedOutBy(RULE, { status: 403, url: FROM })).toEqual({ status: 403 });
  expect(signedOutBy(RULE, { status: 404, url: FROM })).toBeUndefined();
  const redirect = (location: string) => signedOutBy(RULE, { status: 302, url: FROM, location });
  expect(redirect('/accounts/login/?next=/admin/')).toEqual({ redirect: 'https://app.test/accounts/login/?next=/admin/' });
  expect(redirect('/login?next=%2Fadmin%2F')).toEqual({ redirect: 'https://app.test/login?next=%2Fadmin%2F' });
  expect(redirect('https://sso.test/realms/acme/auth?client_id=x')).toEqual({ redirect: 'https://sso.test/realms/acme/auth?client_id=x' });
  // `*` stays within a segment; `/login` is that path, not a prefix.
  expect(redirect('https://sso.test/realms/a/b/auth')).toBeUndefined();
  expect(redirect('/login/help')).toBeUndefined();
  expect(redirect('/accounts/logout/')).toBeUndefined();
});

test('a followed redirect counts when the request did not ask for the login page itself', () => {
  expect(signedOutBy(RULE, { status: 200, url: 'https://app.test/login?next=/x', requested: 'https://app.test/x' })).toEqual({ redirect: 'https://app.test/login?next=/x' });
  expect(signedOutBy(RULE, { status: 200, url: 'https://app.test/login', requested: 'https://app.test/login' })).toBeUndefined();
  expect(signedOutBy(RULE, { status: 200, url: 'https://app.test/y', requested: 'https://app.test/x' })).toBeUndefined();
  expect(signedOutBy({ onStatus: [401], onRedirect: [] }, { status: 302, url: FROM, location: '/login' })).toBeUndefined();
});

test('a long glob against a long URL is bounded work', () => {
  const glob = `/${'*a'.repeat(1000)}b`;
  const started = Date.now();
  expect(signedOutBy({ onStatus: [], onRedirect: [glob] }, { status: 302, url: FROM, location: `/${'a'.repeat(4000)}` })).toBeUndefined();
  expect(Date.now() - started).toBeLessThan(2000);
});

test('the trigger as annotations say it: a same-origin target by its path, another by its URL without query values', () => {
  expect(describeTrigger({ status: 403 }, FROM)).toBe('HTTP 403');
  expect(describeTrigger({ redirect: 'https://app.test/accounts/login/?next=/admin/' }, FROM)).toBe('a redirect to /accounts/login/');
  expect(describeTrigger({ redirect: 'https://sso.test/auth?code=secret' }, FROM)).toBe('a redirect to https://sso.test/auth?code=…');
});
