import { test, expect } from '@playwright/test';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runReplayClaims } from '../../src/sessions/replay-claims.js';
import { removeTempDirs, tempDir } from '../support/temp-files.js';

// Issue 38: the run's replay claims and time, shared by its workers through the run's folder
// (two claimers on one folder stand for two worker processes: each opens its own, as a worker does).
test.afterAll(removeTempDirs);

test('a request is replayed once per run, whichever worker sends it; the run\'s bound counts every worker\'s claims', () => {
  const dir = join(tempDir(), 'access-replay-claims');
  const one = runReplayClaims(dir);
  const two = runReplayClaims(dir);
  expect(one.claim('alice\nGET https://a.test/api/orders/{id}', 3)).toBe('taken');
  expect(two.claim('alice\nGET https://a.test/api/orders/{id}', 3)).toBe('duplicate');
  expect(two.claim('bob\nGET https://a.test/api/orders/{id}', 3)).toBe('taken');
  expect(one.claim('alice\nGET https://a.test/api/me', 3)).toBe('taken');
  expect(two.claim('alice\nGET https://a.test/api/other', 3)).toBe('over_limit');
  expect(one.claim('alice\nGET https://a.test/api/me', 3)).toBe('duplicate');
});

test('the run\'s replay time adds up what each worker spent; a hostile time file is read as what it can be', () => {
  const dir = join(tempDir(), 'access-replay-claims');
  const one = runReplayClaims(dir);
  const two = runReplayClaims(dir);
  expect(one.spentMs()).toBe(0);
  one.addSpent(1200);
  two.addSpent(300.4);
  two.addSpent(-5);
  two.addSpent(Number.NaN);
  expect(one.spentMs()).toBe(1500);
  writeFileSync(join(dir, 'spent'), '100\nnot a number\n-40\n1e400\n__proto__\n50\n');
  expect(two.spentMs()).toBe(150);
  // A link planted at the time file is not followed: nothing is read through it.
  const other = join(tempDir(), 'claims');
  const planted = runReplayClaims(other);
  const elsewhere = join(tempDir(), 'elsewhere');
  writeFileSync(elsewhere, '99999\n');
  symlinkSync(elsewhere, join(other, 'spent'));
  expect(planted.spentMs()).toBe(0);
});
