import { test, expect } from '@playwright/test';
import { hasCookies, jarContents, jarCookieHeader, newCookieJar, storeSetCookies } from '../../../src/runtime/http/cookie-jar.js';

test('Set-Cookie attributes become observed cookies; a cookie without Domain belongs to its host', async () => {
  const jar = newCookieJar();
  const observed = await storeSetCookies(jar, 'https://app.test/auth/login', [
    'sid=abc; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=3600',
    'pref=1',
  ]);
  expect(observed[0]).toMatchObject({ name: 'sid', value: 'abc', domain: 'app.test', path: '/', httpOnly: true, secure: true, sameSite: 'Lax' });
  expect(observed[0]?.expires).toBeGreaterThan(Date.now() / 1000 + 3500);
  expect(observed[1]).toEqual({ name: 'pref', value: '1', domain: 'app.test', path: '/auth', httpOnly: false, secure: false });
  expect(await jarCookieHeader(jar, 'https://app.test/auth/x')).toBe('pref=1; sid=abc'); // longer paths first (RFC 6265 5.4)
  expect(await jarCookieHeader(jar, 'https://app.test/other')).toBe('sid=abc');
  expect(await jarCookieHeader(jar, 'https://elsewhere.test/')).toBe('');
});

test('a cookie the jar refuses is observed but not sent back', async () => {
  const jar = newCookieJar();
  const observed = await storeSetCookies(jar, 'http://app.test/', ['x=1; Domain=other.test']);
  expect(observed.map((c) => [c.name, c.value])).toEqual([['x', '1']]);
  expect(await jarCookieHeader(jar, 'http://app.test/')).toBe('');
  expect(await jarCookieHeader(jar, 'http://other.test/')).toBe('');
});

test('a sign-in jar holds nothing until a response sets a cookie', async () => {
  const jar = newCookieJar();
  expect(hasCookies(jar)).toBe(false);
  expect(await jarContents(jar)).toEqual([]);
  expect(await jarCookieHeader(jar, 'http://app.test/')).toBe('');
  await storeSetCookies(jar, 'http://app.test/', []);
  expect(hasCookies(jar)).toBe(false);
  await storeSetCookies(jar, 'http://app.test/', ['sid=1']);
  expect(hasCookies(jar)).toBe(true);
  expect((await jarContents(jar)).map((c) => `${c.name}=${c.value}`)).toEqual(['sid=1']);
});

test('a cookie deleted with Max-Age=0 is observed as expired at the epoch, and the jar keeps nothing of it', async () => {
  const jar = newCookieJar();
  await storeSetCookies(jar, 'http://a.test/login', ['pmaAuth-1=s3ss10n; Path=/']);
  const observed = await storeSetCookies(jar, 'http://a.test/login', ['pmaAuth-1=deleted; expires=Thu, 01 Jan 1970 00:00:01 GMT; Max-Age=0; path=/; HttpOnly']);
  expect(observed).toMatchObject([{ name: 'pmaAuth-1', value: 'deleted', expires: 0 }]);
  expect(await jarContents(jar)).toEqual([]);
});
