import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createClient } from '@redis/client';
import { test, expect, MULTI_CONFIG } from './support.js';
import { runInlineProject } from '../support/inline-project.js';
import { startRedis, type RedisServer } from '../support/servers/redis.js';
import { ROOT } from '../support/root.js';
import { removeTempDirs, tempDir } from '../support/temp-files.js';
import { cacheKey, shards } from './support/shards.js';
import { WHOAMI_USERS } from './support/whoami-users-spec.js';

// Issue 18, when a shard or Redis fails: a killed lock holder, Redis stopped mid-run
// (support/shards.ts). One shard each, each test with its own Redis database or server: they may
// run side by side, on two workers (each its own demo server).
test.describe.configure({ timeout: 240_000 });

let redis: RedisServer;
test.beforeAll(async () => {
  redis = await startRedis();
});
test.afterAll(async () => {
  await redis?.stop();
  removeTempDirs();
});

/** The dead holder's lock lives this long (a shard's own lives 15 s): the shard after it waits it out. */
const HOLDER_LOCK_TTL_MS = 8_000;

/** How long the one sign-in lock in the Redis database at `url` has left, in ms. */
async function lockTimeToLive(url: string): Promise<number> {
  const client = createClient({ url });
  await client.connect();
  try {
    const locks = await client.keys('multiauth:lock:*');
    expect(locks).toHaveLength(1);
    return await client.pTTL(locks[0] as string);
  } finally {
    client.destroy();
  }
}

test('a shard killed while holding a sign-in lock does not stop the others: they go on once its lock expires', async ({ demo, demoEnv }) => {
  const sealKey = cacheKey();
  const env = { ...demoEnv, MULTIAUTH_STORE: redis.url.replace(/\/0$/, '/2'), MULTIAUTH_CACHE_KEY: sealKey };
  // A process that takes alice's lock the way a shard does, then dies without releasing it.
  const configFile = join(tempDir(), 'multiauth.yaml');
  writeFileSync(configFile, MULTI_CONFIG);
  const holder = spawn(process.execPath, [join(ROOT, 'tests/playwright/support/hold-redis-lock.mjs'), env.MULTIAUTH_STORE, configFile, 'alice', String(HOLDER_LOCK_TTL_MS)], {
    cwd: ROOT, env: { ...process.env, ...demoEnv }, stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    holder.stdout.on('data', (chunk: Buffer) => { if (chunk.toString().includes('held')) resolve(); });
    holder.on('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
  });
  holder.kill('SIGKILL');
  const lockLeft = await lockTimeToLive(env.MULTIAUTH_STORE);
  expect(lockLeft).toBeGreaterThan(HOLDER_LOCK_TTL_MS / 2);
  demo.clear();
  const started = Date.now();
  const [shard] = await shards(env, 1);
  expect(shard?.failed, shard?.output).toBe(0);
  expect(demo.counters.signIns).toEqual({ alice: 1, bob: 1, carol: 1, dave: 1 });
  // alice waited for the dead holder's lock to expire, not for ever.
  expect(Date.now() - started).toBeGreaterThanOrEqual(lockLeft);
});

test('Redis stopped mid-run: the run passes on its own file store, with one warning', async ({ demo, demoEnv }) => {
  const own = await startRedis();
  const env = { ...demoEnv, MULTIAUTH_STORE: own.url, MULTIAUTH_CACHE_KEY: cacheKey() };
  demo.clear();
  const spec = `
import { test, expect } from 'playwright-multiauth';
test.describe.configure({ mode: 'serial' });
for (const [index, user] of ${JSON.stringify(WHOAMI_USERS)}.entries()) {
  test.describe(() => {
    test.use({ authUser: user });
    test(user, async ({ authedRequest }) => {
      expect((await (await authedRequest.post('/whoami', { data: {} })).json()).user).toBe(user);
      // After the second user, Redis goes away.
      if (index === 1) await fetch(process.env.STOP_REDIS_URL!, { method: 'POST' });
    });
  });
}
`;
  const stopper = await stopEndpoint(() => own.stop());
  try {
    const result = await runInlineProject({ 'multiauth.yaml': MULTI_CONFIG, 'shard.spec.ts': spec }, { env: { ...env, STOP_REDIS_URL: stopper.url }, args: ['--workers=1'] });
    expect(result.failed, result.output).toBe(0);
    expect(result.passed).toBe(4);
    expect(result.output.match(/the Redis session store redis:\/\/127\.0\.0\.1:\d+\/0 failed/g)).toHaveLength(1);
    expect(result.output).toContain('this process goes on with its own file store');
    expect(demo.counters.signIns).toEqual({ alice: 1, bob: 1, carol: 1, dave: 1 });
  } finally {
    await stopper.close();
    await own.stop();
  }
});

/** An endpoint the shard's spec calls to stop Redis in the middle of its run. */
async function stopEndpoint(stop: () => Promise<void>): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => void stop().then(() => res.end('stopped')));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
