import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureCacheDir, FileBackend, SessionStore, sessionFilePath } from '../../src/sessions/index.js';
import { readSessionFile } from '../../src/sessions/session-file.js';
import { Sealer } from '../../src/sessions/seal.js';
import { MultiAuthError } from '../../src/core/errors.js';
import { removeTempDirs, tempDir } from '../support/temp-files.js';
import { makeSession } from './support/make-session.js';

// Issue 23, items 7, 12 and 14: a cache directory may be shared, restored from a CI cache or
// unpacked from a bundle. What was planted in it (links, FIFOs) must neither be written through nor
// block a worker; a directory that exists keeps the mode its owner gave it.
test.afterEach(() => removeTempDirs());

const KEY = 'k'.repeat(64);
const mkfifo = (path: string): void => void execFileSync('mkfifo', [path]);

/** A file outside the cache directory that a planted link points at: it must stay as it is. */
function victim(): string {
  const path = join(tempDir(), 'victim.txt');
  writeFileSync(path, 'do not touch\n');
  return path;
}

test('a check mark planted as a link is replaced, not written through', async () => {
  const dir = tempDir();
  const target = victim();
  const backend = new FileBackend({ dir });
  const slot = backend.slot('alice', KEY);
  symlinkSync(target, `${slot}.checked`);
  const session = makeSession('alice', 't', null);
  await backend.markChecked(slot, 'run-1', session);
  expect(readFileSync(target, 'utf8')).toBe('do not touch\n');
  expect(lstatSync(`${slot}.checked`).isFile()).toBe(true);
  expect(statSync(`${slot}.checked`).mode & 0o777).toBe(0o600);
  expect(await backend.checkedInRun(slot, 'run-1', session)).toBe(true);
});

test('a link to a mark is not followed when read: a planted mark outside the directory counts for nothing', async () => {
  const dir = tempDir();
  const backend = new FileBackend({ dir });
  const slot = backend.slot('alice', KEY);
  const session = makeSession('alice', 't', null);
  const outside = join(tempDir(), 'mark');
  writeFileSync(outside, JSON.stringify({ run: 'run-1', createdAt: session.createdAt, at: Date.now() }));
  symlinkSync(outside, `${slot}.checked`);
  expect(await backend.checkedInRun(slot, 'run-1', session)).toBe(false);
});

test('a dangling .gitignore link is replaced by the real .gitignore; its target is never created', () => {
  const dir = tempDir();
  const target = join(tempDir(), 'created-through-link');
  symlinkSync(target, join(dir, '.gitignore'));
  ensureCacheDir(dir);
  expect(existsSync(target)).toBe(false);
  expect(lstatSync(join(dir, '.gitignore')).isFile()).toBe(true);
  expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toMatch(/^\*$/m);
});

test('session files and failure memories planted as links are replaced, not written through', async () => {
  const dir = tempDir();
  const target = victim();
  const failedTarget = victim();
  const backend = new FileBackend({ dir });
  const slot = backend.slot('alice', KEY);
  symlinkSync(target, slot);
  symlinkSync(failedTarget, `${slot}.failed`);
  await backend.write(slot, KEY, makeSession('alice', 't', null));
  await backend.writeFailure(slot, 'run-1', new MultiAuthError('AUTH_HTTP_STATUS', 'wrong password'), (t) => t);
  expect(readFileSync(target, 'utf8')).toBe('do not touch\n');
  expect(readFileSync(failedTarget, 'utf8')).toBe('do not touch\n');
  expect((await backend.read(slot, KEY))?.user).toBe('alice');
  expect((await backend.readFailure(slot, 'run-1'))?.message).toContain('wrong password');
});

test('a FIFO in place of a session file, a failure memory or a check mark blocks nothing: the user signs in', async () => {
  const dir = tempDir();
  const path = sessionFilePath(dir, KEY, 'alice');
  for (const suffix of ['', '.failed', '.checked']) mkfifo(path + suffix);
  const started = Date.now();
  expect(readSessionFile(path, KEY)).toBeUndefined();
  // Removed, so the next writer starts clean.
  expect(existsSync(path)).toBe(false);
  const signIns: string[] = [];
  const store = new SessionStore({ dir, scopeKey: KEY, run: 'run-1' }, {
    signIn: async (user) => (signIns.push(user), makeSession(user, 'fresh', null)),
    refresh: async (session) => session,
    checks: () => true,
    check: async () => undefined,
  });
  const { source } = await store.get('alice');
  expect(source).toBe('fresh');
  expect(signIns).toEqual(['alice']);
  expect(Date.now() - started).toBeLessThan(10_000);
  expect(lstatSync(path).isFile()).toBe(true);
});

test('a session file sealed with the cache key, a failure memory and a check mark are sealed too, each for its own file', async () => {
  const dir = tempDir();
  const sealer = new Sealer(Buffer.alloc(32, 7));
  const backend = new FileBackend({ dir, sealer });
  const slot = backend.slot('alice', KEY);
  const session = makeSession('alice', 't', null);
  await backend.writeFailure(slot, 'run-1', new MultiAuthError('AUTH_HTTP_STATUS', 'wrong password'), (t) => t);
  await backend.markChecked(slot, 'run-1', session);
  expect(readFileSync(`${slot}.failed`, 'utf8')).toMatch(/^mas1\./);
  expect(readFileSync(`${slot}.checked`, 'utf8')).toMatch(/^mas1\./);
  expect((await backend.readFailure(slot, 'run-1'))?.message).toContain('wrong password');
  expect(await backend.checkedInRun(slot, 'run-1', session)).toBe(true);
  // A plaintext memory (written without the key) counts for nothing where a key is set.
  const planted = JSON.stringify({ run: 'run-1', at: Date.now(), error: { code: 'AUTH_HTTP_STATUS', message: 'planted' } });
  expect((await new FileBackend({ dir }).readFailure(slot, 'run-1'))).toBeUndefined();
  writeFileSync(`${slot}.failed`, planted);
  expect((await new FileBackend({ dir }).readFailure(slot, 'run-1'))?.message).toBe('planted');
  expect(await backend.readFailure(slot, 'run-1')).toBeUndefined();
  // A sealed memory moved to another user's file does not open there.
  await backend.writeFailure(slot, 'run-1', new MultiAuthError('AUTH_HTTP_STATUS', 'wrong password'), (t) => t);
  const bob = backend.slot('bob', KEY);
  writeFileSync(`${bob}.failed`, readFileSync(`${slot}.failed`, 'utf8'));
  expect(await backend.readFailure(bob, 'run-1')).toBeUndefined();
});

test('an existing cache directory keeps its mode (a shared 1777 folder stays 1777); a new one is made 0700', () => {
  const shared = tempDir();
  chmodSync(shared, 0o1777);
  ensureCacheDir(shared);
  expect(statSync(shared).mode & 0o7777).toBe(0o1777);
  const fresh = join(shared, 'new', '.auth');
  ensureCacheDir(fresh);
  expect(statSync(fresh).mode & 0o777).toBe(0o700);
  mkdirSync(join(shared, 'kept'), { mode: 0o755 });
  chmodSync(join(shared, 'kept'), 0o755);
  ensureCacheDir(join(shared, 'kept'));
  expect(statSync(join(shared, 'kept')).mode & 0o777).toBe(0o755);
});
