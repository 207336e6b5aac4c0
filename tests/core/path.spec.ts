import { test, expect } from '@playwright/test';
import { formatPath } from '../../src/core/path.js';

test('formats keys and indexes as users read them', () => {
  expect(formatPath(['presets', 2, 'users', 0, 'password'])).toBe('presets[2].users[0].password');
  expect(formatPath(['users', 0, 'credentials', 'headers', 1, 'x y'])).toBe('users[0].credentials.headers[1]["x y"]');
  expect(formatPath([])).toBe('(root)');
});
