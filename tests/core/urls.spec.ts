import { test, expect } from '@playwright/test';
import { maskUrlPasswords, redactedUrl, redactUrlsIn, urlPasswords } from '../../src/core/urls.js';

test('redactedUrl drops user info, query values and fragment, keeping the query names', () => {
  expect(redactedUrl('https://u:p@a.test/login?password=x&code=y&code=z#t')).toBe('https://a.test/login?password=…&code=…');
  expect(redactedUrl('http://a.test/plain')).toBe('http://a.test/plain');
  expect(redactedUrl('not a url?secret=1')).toBe('not a url');
  // Cutting twice gives the same text: the error renderer cuts again what a step already cut.
  expect(redactedUrl(redactedUrl('https://a.test/cb?code=abc'))).toBe('https://a.test/cb?code=…');
});

test('redactUrlsIn cuts every URL of a text, leaving the sentence around it', () => {
  expect(redactUrlsIn('navigating to "https://idp.test/cb?code=abc#x", waiting until "load".')).toBe(
    'navigating to "https://idp.test/cb?code=…", waiting until "load".',
  );
  expect(redactUrlsIn('at http://a.test/x?t=1. Then https://u:pw@b.test/y')).toBe('at http://a.test/x?t=…. Then https://b.test/y');
  expect(redactUrlsIn('no url here')).toBe('no url here');
  // Bounded: a megabyte-long URL-like run is handled in linear time.
  const long = `https://a.test/${'a'.repeat(1_000_000)}?code=secret`;
  expect(redactUrlsIn(long)).not.toContain('secret');
});

test('urlPasswords finds the password of every URL user-info, raw, decoded and with its user', () => {
  expect(urlPasswords('proxy http://bob:p%40ss@proxy.test:3128 and https://u:pw2@a.test/x')).toEqual(['p%40ss', 'p@ss', 'bob:p@ss', 'pw2', 'pw2', 'u:pw2']);
  expect(urlPasswords('http://token@a.test/ http://u:{{password}}@a.test/ http://a.test/?p=1 mailto:x:y@z')).toEqual([]);
});

test('maskUrlPasswords masks passwords of any length and keeps the user name and templates', () => {
  expect(maskUrlPasswords('proxy http://bob:pw@proxy.test:3128, then https://u:{{pw}}@a.test', '***')).toBe(
    'proxy http://bob:***@proxy.test:3128, then https://u:{{pw}}@a.test',
  );
  expect(maskUrlPasswords('no url', '***')).toBe('no url');
  // Linear: a megabyte of colons after "://" with no "@".
  const long = `http://${':'.repeat(1_000_000)}`;
  const started = Date.now();
  expect(maskUrlPasswords(long.repeat(2), '***')).toBe(long.repeat(2));
  expect(Date.now() - started).toBeLessThan(1_000);
});
