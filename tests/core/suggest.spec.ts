import { test, expect } from '@playwright/test';
import { didYouMean, suggest } from '../../src/core/suggest.js';

test('suggests close spellings, case-only differences, prefixes and suffixes', () => {
  expect(suggest('pasword', ['username', 'password'])).toBe('password');
  expect(suggest('usrs', ['presets', 'procedures', 'users'])).toBe('users');
  expect(suggest('post', ['GET', 'POST'])).toBe('POST');
  expect(suggest('certpath', ['certPath', 'keyPath'])).toBe('certPath');
  expect(suggest('basicauth', ['basic', 'digest'])).toBe('basic');
  expect(suggest('client_secret_post', ['post', 'basic'])).toBe('post');
  expect(suggest('lgoin', ['login', 'logout'])).toBe('login');
});

test('suggests nothing for distant words or very short ones', () => {
  expect(suggest('zzz', ['GET', 'POST'])).toBeUndefined();
  expect(suggest('q', ['p'])).toBeUndefined();
  expect(suggest('script', ['username', 'project', 'headers', 'cookies'])).toBeUndefined();
  expect(suggest('x', [])).toBeUndefined();
});

test('didYouMean renders the suggestion or nothing', () => {
  expect(didYouMean('usrs', ['users'])).toBe(' (did you mean "users"?)');
  expect(didYouMean('zzz', ['users'])).toBe('');
});
