import { test, expect } from '@playwright/test';
import { withoutEscapes } from '../../src/core/terminal-text.js';

// Issue 23, item 2: Playwright's call log, in colour, went to the terminal as it came; masking
// must see the characters the user sees, and a quoted text must not rewrite the terminal.

test('colours, cursor moves, titles and links are removed; newlines and tabs stay', () => {
  expect(withoutEscapes('\u001b[2m  - navigating to "http://a.test/"\u001b[22m\n\tnext')).toBe('  - navigating to "http://a.test/"\n\tnext');
  expect(withoutEscapes('a\u001b[1;31mb\u001b[0mc\u001b[2Kd\u001b[10;20He')).toBe('abcde');
  expect(withoutEscapes('\u001b]0;title\u0007x\u001b]8;;http://a.test\u001b\\link\u001b]8;;\u001b\\')).toBe('xlink');
  expect(withoutEscapes('tok\u0000en\r\u007f\u009b')).toBe('token');
  // An escape cut short is removed too, never left to swallow what follows.
  expect(withoutEscapes('end\u001b')).toBe('end');
  expect(withoutEscapes('\u001b]unterminated title')).toBe('');
});

test('a secret split by escape sequences is whole again, for the redactor to find', () => {
  expect(withoutEscapes('X-Api-Key: api-\u001b[1mkey\u001b[22m-secret')).toBe('X-Api-Key: api-key-secret');
});

test('linear in the length of the text: many unterminated sequences', () => {
  const text = '\u001b]'.repeat(200_000) + '\u001b['.repeat(200_000);
  const started = Date.now();
  expect(withoutEscapes(text)).toBe('');
  expect(Date.now() - started).toBeLessThan(2_000);
});
