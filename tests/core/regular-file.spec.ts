import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NotRegularFileError, readRegularFile, writeFileAtomically } from '../../src/core/regular-file.js';
import { removeTempDirs, tempDir } from '../support/temp-files.js';

test.afterEach(() => removeTempDirs());

function reason(work: () => unknown): string | undefined {
  try {
    work();
  } catch (error) {
    if (error instanceof NotRegularFileError) return error.reason;
    throw error;
  }
  return undefined;
}

test('reads a regular file up to its bound, and refuses one byte more', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'ten'), '0123456789');
  expect(readRegularFile(join(dir, 'ten'), { maxBytes: 10 })).toBe('0123456789');
  expect(reason(() => readRegularFile(join(dir, 'ten'), { maxBytes: 9 }))).toBe('too-large');
  expect(reason(() => readRegularFile(join(dir, 'none'), { maxBytes: 9 }))).toBe('missing');
});

test('a FIFO, a device and a folder are refused without being opened; a link is followed only when asked', () => {
  const dir = tempDir();
  execFileSync('mkfifo', [join(dir, 'fifo')]);
  mkdirSync(join(dir, 'folder'));
  writeFileSync(join(dir, 'real'), 'text');
  symlinkSync(join(dir, 'real'), join(dir, 'link'));
  symlinkSync('/dev/zero', join(dir, 'zero'));
  expect(reason(() => readRegularFile(join(dir, 'fifo'), { maxBytes: 100 }))).toBe('not-regular');
  expect(reason(() => readRegularFile(join(dir, 'zero'), { maxBytes: 100 }))).toBe('not-regular');
  expect(reason(() => readRegularFile(join(dir, 'folder'), { maxBytes: 100 }))).toBe('directory');
  expect(readRegularFile(join(dir, 'link'), { maxBytes: 100 })).toBe('text');
  expect(reason(() => readRegularFile(join(dir, 'link'), { maxBytes: 100, followLinks: false }))).toBe('link');
});

test('an atomic write replaces a link or a FIFO at the path, never writes into what it points at', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'victim'), 'kept');
  symlinkSync(join(dir, 'victim'), join(dir, 'out'));
  execFileSync('mkfifo', [join(dir, 'fifo')]);
  writeFileAtomically(join(dir, 'out'), 'new');
  writeFileAtomically(join(dir, 'fifo'), 'new');
  expect(readFileSync(join(dir, 'victim'), 'utf8')).toBe('kept');
  expect(readRegularFile(join(dir, 'out'), { maxBytes: 10, followLinks: false })).toBe('new');
  expect(readRegularFile(join(dir, 'fifo'), { maxBytes: 10, followLinks: false })).toBe('new');
});
