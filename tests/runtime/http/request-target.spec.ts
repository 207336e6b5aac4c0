import { test, expect } from '@playwright/test';
import { requestTarget } from '../../../src/runtime/http/request-target.js';

test('origin and path as undici computes them: query kept, fragment and user info dropped, default port left out', () => {
  expect(requestTarget('http://127.0.0.1:4010/auth/token')).toEqual({ origin: 'http://127.0.0.1:4010', path: '/auth/token' });
  expect(requestTarget('https://u:p@api.test:443/a/b?x=1&y=%20#frag')).toEqual({ origin: 'https://api.test', path: '/a/b?x=1&y=%20' });
  expect(requestTarget('http://api.test')).toEqual({ origin: 'http://api.test', path: '/' });
});

test('the same URL gives the same target object; the cache stays bounded', () => {
  const first = requestTarget('http://api.test/login');
  expect(requestTarget('http://api.test/login')).toBe(first);
  for (let i = 0; i < 300; i++) requestTarget(`http://api.test/${i}`);
  expect(requestTarget('http://api.test/login')).toEqual(first);
});

test('a string that is not a URL throws', () => {
  expect(() => requestTarget('not a url')).toThrow(TypeError);
});
