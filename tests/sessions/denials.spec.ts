import { test, expect } from '@playwright/test';
import { readFileSync, readdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isKnownDenial, rememberDenial, rememberSuspect, suspectSince, type Denial } from '../../src/sessions/denials.js';
import { removeTempDirs, tempDir } from '../support/temp-files.js';

test.afterAll(removeTempDirs);

const DENIAL: Denial = { userKey: 'a'.repeat(64), method: 'GET', path: 'https://app.test/settings', refusal: '401' };

test('a denial is known by user, method, path and refusal, to every process sharing the directory, for a day', () => {
  const dir = join(tempDir(), '.auth');
  expect(isKnownDenial(dir, DENIAL)).toBe(false);
  rememberDenial(dir, DENIAL);
  expect(isKnownDenial(dir, DENIAL)).toBe(true);
  expect(isKnownDenial(dir, { ...DENIAL, method: 'get' })).toBe(true);
  for (const other of [{ method: 'POST' }, { path: 'https://app.test/flows' }, { refusal: '403' }, { userKey: 'b'.repeat(64) }]) {
    expect(isKnownDenial(dir, { ...DENIAL, ...other })).toBe(false);
  }
  // The marker names no path, user or key, and holds nothing; the directory is private.
  const [marker] = readdirSync(dir).filter((name) => name.startsWith('denial-'));
  expect(marker).toMatch(/^denial-[0-9a-f]{32}$/);
  expect(statSync(join(dir, marker!)).size).toBe(0);
  expect(statSync(dir).mode & 0o777).toBe(0o700);
  const old = new Date(Date.now() - 25 * 60 * 60 * 1000);
  utimesSync(join(dir, marker!), old, old);
  expect(isKnownDenial(dir, DENIAL)).toBe(false);
  // Remembered again, it counts from now; the next denial removes expired markers.
  rememberDenial(dir, DENIAL);
  expect(isKnownDenial(dir, DENIAL)).toBe(true);
});

test('a suspect answer remembers when its new session was made, never written through a link', () => {
  const dir = join(tempDir(), '.auth');
  expect(suspectSince(dir, DENIAL)).toBeUndefined();
  rememberSuspect(dir, DENIAL, 1_700_000_000_123);
  expect(suspectSince(dir, DENIAL)).toBe(1_700_000_000_123);
  const [marker] = readdirSync(dir).filter((name) => name.startsWith('suspect-'));
  writeFileSync(join(dir, marker!), 'not a time');
  expect(suspectSince(dir, DENIAL)).toBeUndefined();
  // A link where the marker goes is replaced, and its target left alone.
  const target = join(tempDir(), 'target');
  writeFileSync(target, 'keep');
  const other = { ...DENIAL, method: 'POST' };
  rememberSuspect(dir, other, 1);
  const [second] = readdirSync(dir).filter((name) => name.startsWith('suspect-') && name !== marker);
  const linked = join(dir, second!);
  rmSync(linked);
  symlinkSync(target, linked);
  rememberSuspect(dir, other, 2);
  expect(readFileSync(target, 'utf8')).toBe('keep');
  expect(suspectSince(dir, other)).toBe(2);
});
