import { createClient } from '@redis/client';
import { test, expect, MULTI_CONFIG } from './support.js';
import { startRedis, type RedisServer } from '../support/servers/redis.js';
import { runInlineProject, testsByProject } from '../support/inline-project.js';
import { cacheKey, JWT, shards, totalSignIns } from './support/shards.js';
import { WHOAMI_USERS, WHOAMI_USERS_SPEC } from './support/whoami-users-spec.js';

// Issue 18, the Redis store: four shards share one sign-in per user (support/shards.ts). The locks,
// rotation and bundles are files of their own (shard-*.spec.ts). Each test has its own Redis
// database and every worker its own Redis and demo server, so the tests may run side by side.
test.describe.configure({ timeout: 240_000 });

let redis: RedisServer;
test.beforeAll(async () => {
  redis = await startRedis();
});
test.afterAll(async () => {
  await redis?.stop();
});

// The two halves of one comparison, as `npm run bench` makes it: two tests, so that two workers
// may run them at once.
test('4 shards × 4 users with a file store each: 16 sign-ins', async ({ demo, demoEnv }) => {
  const files = await shards(demoEnv);
  for (const shard of files) expect(shard.failed, shard.output).toBe(0);
  expect(totalSignIns(demo.counters.signIns)).toBe(16);
});

test('4 shards × 4 users with the Redis store: 4 sign-ins; nothing in Redis in clear', async ({ demo, demoEnv }) => {
  demo.clear();
  const sealKey = cacheKey();
  const shared = await shards({ ...demoEnv, MULTIAUTH_STORE: redis.url, MULTIAUTH_CACHE_KEY: sealKey });
  for (const shard of shared) expect(shard.failed, shard.output).toBe(0);
  expect(demo.counters.signIns).toEqual({ alice: 1, bob: 1, carol: 1, dave: 1 });

  const client = createClient({ url: redis.url });
  await client.connect();
  try {
    const keys = await client.keys('multiauth:session:*');
    expect(keys.sort().map((k) => k.split(':')[2]?.split('-')[0])).toEqual(WHOAMI_USERS);
    for (const name of keys) {
      const raw = (await client.get(name)) ?? '';
      expect(raw).toContain('"sealed":"mas1.');
      expect(raw).not.toMatch(JWT);
      expect(await client.pTTL(name)).toBeGreaterThan(0);
    }
  } finally {
    client.destroy();
  }
});

test('a Redis store without MULTIAUTH_CACHE_KEY refuses to start, unless plaintext is asked for', async ({ demoEnv }) => {
  // Side by side, not one after the other: they share nothing (the plaintext one has a database of its own).
  const [refused, plain] = await Promise.all([
    // Declared to fail (test.fail), each test of the refused shard fails in the same worker: an
    // unexpected failure would start a new worker process for each of the four.
    runInlineProject({ 'multiauth.yaml': MULTI_CONFIG, 'shard.spec.ts': WHOAMI_USERS_SPEC.replace('test(user,', 'test.fail(user,') }, { env: { ...demoEnv, MULTIAUTH_STORE: redis.url } }),
    shards({ ...demoEnv, MULTIAUTH_STORE: `${redis.url.replace(/\/0$/, '/1')}`, MULTIAUTH_STORE_PLAINTEXT: '1' }, 1),
  ]);
  const refusedTests = Object.values(testsByProject(refused.report)).flat();
  expect(refusedTests.map((t) => t.title).sort(), refused.output).toEqual([...WHOAMI_USERS].sort());
  for (const failed of refusedTests) {
    // Each failed as declared (Playwright's "expected"), with the store's refusal.
    expect(failed.status, refused.output).toBe('expected');
    expect(failed.errors.join('\n')).toContain('a Redis session store needs MULTIAUTH_CACHE_KEY');
  }
  expect(plain[0]?.failed, plain[0]?.output).toBe(0);
});
