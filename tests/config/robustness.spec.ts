import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect } from '@playwright/test';
import { parseConfig } from '../../src/config/index.js';
import { MultiAuthError } from '../../src/core/errors.js';

/**
 * No input may make the loader fail with anything but a MultiAuthError (whose rendering has no
 * stack trace): every corpus file is cut and mangled in many places and parsed again.
 */
const DIR = fileURLToPath(new URL('./bad/', import.meta.url));
const files = readdirSync(DIR).filter((n) => /\.(ya?ml|json)$/.test(n)).sort();

function* mangled(text: string): Generator<string> {
  let seed = 42;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % Math.max(n, 1);
  };
  const junk = [':', '-', '{', '}', '[', ']', '"', "'", '&a', '*a', '${', '$${X}', '\t', '\n', '#', '? ', '!!int ', '<<: '];
  for (let i = 0; i < 12; i++) {
    const at = random(text.length);
    yield text.slice(0, at);
    yield text.slice(0, at) + junk[random(junk.length)]! + text.slice(at);
    yield text.slice(0, at) + text.slice(at + 1 + random(8));
  }
}

test('mangled configs fail only with MultiAuthError', () => {
  let failures = 0;
  for (const name of files) {
    for (const text of mangled(readFileSync(join(DIR, name), 'utf8'))) {
      try {
        parseConfig(text, name, { env: { ALICE_PASSWORD: 'x' } });
      } catch (error) {
        if (!(error instanceof MultiAuthError)) throw new Error(`${name}: ${String(error)}\n--- input:\n${text}`);
        expect(error.render()).not.toMatch(/\n\s+at .+:\d+:\d+/);
        failures++;
      }
    }
  }
  expect(failures).toBeGreaterThan(files.length * 10);
});

test('an alias bomb is refused as a config error', () => {
  const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
  for (let i = 0; i < 8; i++) lines.push(`${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`);
  let caught: unknown;
  try {
    parseConfig(lines.join('\n'), 'bomb.yaml', { env: {} });
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(MultiAuthError);
  expect((caught as MultiAuthError).code).toBe('CONFIG_SYNTAX');
});
