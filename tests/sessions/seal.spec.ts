import { expect, test } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileBackend, Sealer, sealerFromEnv } from '../../src/sessions/index.js';
import type { SignInResult } from '../../src/runtime/index.js';
import { removeTempDirs, tempDir } from '../support/temp-files.js';

test.afterAll(removeTempDirs);

const SESSION = { user: 'alice', headers: { Authorization: ['Bearer tok-3f9a77'] }, cookies: [], query: {}, body: { set: {} }, origins: [], createdAt: 1, expiresAt: null, variables: {}, origin: 'signed-in' } as SignInResult;

test('a sealed value opens with its key and name only; anything else is no session, not an error', () => {
  const key = randomBytes(32);
  const sealer = new Sealer(key);
  const sealed = sealer.seal('{"a":1}', 'alice-1');
  expect(sealed).toMatch(/^mas1\.[\w-]+\.[\w-]+\.[\w-]+$/);
  expect(sealer.open(sealed, 'alice-1')).toBe('{"a":1}');
  expect(sealer.seal('{"a":1}', 'alice-1')).not.toBe(sealed);
  expect(sealer.open(sealed, 'bob-1')).toBeUndefined();
  expect(new Sealer(randomBytes(32)).open(sealed, 'alice-1')).toBeUndefined();
  expect(sealer.open(`${sealed.slice(0, -2)}AA`, 'alice-1')).toBeUndefined();
  for (const junk of ['', 'mas1.', 'mas1.a.b', '{"a":1}', 42, null]) expect(sealer.open(junk, 'alice-1')).toBeUndefined();
});

test('MULTIAUTH_CACHE_KEY: base64 or hex of 32 bytes; anything else is a clear error, unset is none', () => {
  const key = randomBytes(32);
  expect(sealerFromEnv({})).toBeUndefined();
  expect(sealerFromEnv({ MULTIAUTH_CACHE_KEY: ' ' })).toBeUndefined();
  const b64 = sealerFromEnv({ MULTIAUTH_CACHE_KEY: key.toString('base64') })!;
  const hex = sealerFromEnv({ MULTIAUTH_CACHE_KEY: key.toString('hex') })!;
  expect(hex.open(b64.seal('x', 'n'), 'n')).toBe('x');
  expect(() => sealerFromEnv({ MULTIAUTH_CACHE_KEY: 'too-short' })).toThrow(/MULTIAUTH_CACHE_KEY is not a 32-byte key/);
  expect(() => sealerFromEnv({ MULTIAUTH_CACHE_KEY: randomBytes(16).toString('base64') })).toThrow(/not a 32-byte key/);
});

test('the file store seals with a key: no token on disk; another key or no key reads no session', async () => {
  const dir = tempDir();
  const key = randomBytes(32);
  const sealed = new FileBackend({ dir, sealer: new Sealer(key) });
  const slot = sealed.slot('alice', 'k1');
  await sealed.write(slot, 'k1', SESSION);
  const raw = readFileSync(slot, 'utf8');
  expect(raw).not.toContain('tok-3f9a77');
  expect(JSON.parse(raw)).toMatchObject({ format: 3, key: 'k1', sealed: expect.stringMatching(/^mas1\./) });
  expect(await sealed.read(slot, 'k1')).toEqual(SESSION);
  expect(await new FileBackend({ dir, sealer: new Sealer(randomBytes(32)) }).read(slot, 'k1')).toBeUndefined();
  expect(await new FileBackend({ dir }).read(slot, 'k1')).toBeUndefined();
  // A plaintext file is not taken when a key is set.
  const plain = new FileBackend({ dir: join(dir, 'plain') });
  const plainSlot = plain.slot('alice', 'k1');
  await plain.write(plainSlot, 'k1', SESSION);
  expect(await new FileBackend({ dir: join(dir, 'plain'), sealer: new Sealer(key) }).read(plainSlot, 'k1')).toBeUndefined();
});
