import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createClient } from '@redis/client';
import { test, expect, MULTI_CONFIG } from './support.js';
import { runInlineProject, type InlineResult } from '../support/inline-project.js';
import { startRedis, type RedisServer } from '../support/servers/redis.js';
import { ROOT } from '../support/root.js';
import { runCliAsync } from '../support/cli.js';
import { tempDir } from '../support/temp-files.js';
import { WHOAMI_USERS, WHOAMI_USERS_SPEC } from './support/whoami-users-spec.js';

// Issue 18: sharded runs on several machines share one sign-in per user. Four shards, each a
// Playwright run in its own working directory (its own .auth/), against the demo server with four
// users (alice, bob, carol through a token endpoint, dave through a form login). Serial: each test
// runs up to four shards at once, two workers each; two such tests at once timed sign-ins out on a
// loaded 2-core machine. The file starts first in the run (playwright.config.ts): no long tail.
test.describe.configure({ mode: 'serial', timeout: 240_000 });

const USERS = WHOAMI_USERS;
const SPEC = WHOAMI_USERS_SPEC;
/** A JWT the demo server issued (its tokens are JWTs): what must never be stored in clear. */
const JWT = /eyJ[\w-]{10,}\.[\w-]{10,}\.[\w-]{10,}/;

const key = () => randomBytes(32).toString('base64');

function shards(env: Record<string, string>, count = 4, dirOf?: (i: number) => string): Promise<InlineResult[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => runInlineProject({ 'multiauth.yaml': MULTI_CONFIG, 'shard.spec.ts': SPEC }, { env, ...(dirOf ? { dir: dirOf(i) } : {}) })));
}

function totalSignIns(counters: Record<string, number>): number {
  return Object.values(counters).reduce((a, b) => a + b, 0);
}

let redis: RedisServer;
test.beforeAll(async () => {
  redis = await startRedis();
});
test.afterAll(async () => {
  await redis?.stop();
});

test('4 shards × 4 users: 4 sign-ins with the Redis store (16 with a file store each); nothing in Redis in clear', async ({ demo, demoEnv }) => {
  const files = await shards(demoEnv);
  for (const shard of files) expect(shard.failed, shard.output).toBe(0);
  expect(totalSignIns(demo.counters.signIns)).toBe(16);

  demo.clear();
  const cacheKey = key();
  const shared = await shards({ ...demoEnv, MULTIAUTH_STORE: redis.url, MULTIAUTH_CACHE_KEY: cacheKey });
  for (const shard of shared) expect(shard.failed, shard.output).toBe(0);
  expect(demo.counters.signIns).toEqual({ alice: 1, bob: 1, carol: 1, dave: 1 });

  const client = createClient({ url: redis.url });
  await client.connect();
  try {
    const keys = await client.keys('multiauth:session:*');
    expect(keys.sort().map((k) => k.split(':')[2]?.split('-')[0])).toEqual(USERS);
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
  const refused = await shards({ ...demoEnv, MULTIAUTH_STORE: redis.url }, 1);
  expect(refused[0]?.failed).toBe(4);
  expect(refused[0]?.output).toContain('a Redis session store needs MULTIAUTH_CACHE_KEY');
  const plain = await shards({ ...demoEnv, MULTIAUTH_STORE: `${redis.url.replace(/\/0$/, '/1')}`, MULTIAUTH_STORE_PLAINTEXT: '1' }, 1);
  expect(plain[0]?.failed, plain[0]?.output).toBe(0);
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
  const cacheKey = key();
  const env = { ...demoEnv, MULTIAUTH_STORE: redis.url.replace(/\/0$/, '/2'), MULTIAUTH_CACHE_KEY: cacheKey };
  // A process that takes alice's lock the way a shard does, then dies without releasing it.
  const configFile = join(tempDir(), 'multiauth.yaml');
  writeFileSync(configFile, MULTI_CONFIG);
  const holder = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'tests/playwright/support/hold-redis-lock.ts'), env.MULTIAUTH_STORE, configFile, 'alice', String(HOLDER_LOCK_TTL_MS)], {
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
  const env = { ...demoEnv, MULTIAUTH_STORE: own.url, MULTIAUTH_CACHE_KEY: key() };
  demo.clear();
  const spec = `
import { test, expect } from 'playwright-multiauth';
test.describe.configure({ mode: 'serial' });
for (const [index, user] of ${JSON.stringify(USERS)}.entries()) {
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

// Refresh tokens that work once (the demo's /auth/refresh rotates them): shards that each refreshed
// their own copy would refuse each other (invalid_grant). With Redis one shard refreshes, under the
// lock, and the others take its session. Sessions last 6 s; each test lives through two expiries.
const ROTATING = `
procedures:
  - name: login
    operations:
      - tech: http
        parameters: { url: "\${DEMO_URL}/rec/auth/token", method: POST, body: { username: "{{username}}", password: "{{password}}", ttl: "6" } }
        extractions:
          - { name: access_token, location: body, key: data.auth.access_token }
          - { name: refresh_token, location: body, key: data.auth.refresh_token }
          - { name: expires_in, location: body, key: data.auth.expires_in }
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: access_token }]
  - name: renew
    operations:
      - tech: http
        parameters: { url: "\${DEMO_URL}/rec/auth/refresh", method: POST, body: { refresh_token: "{{refresh_token}}", ttl: "6" } }
        extractions:
          - { name: access_token, location: body, key: data.auth.access_token }
          - { name: refresh_token, location: body, key: data.auth.refresh_token }
          - { name: expires_in, location: body, key: data.auth.expires_in }
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: access_token }]
users:
  - { name: alice, credentials: { username: alice, password: alice-password }, procedure: login, refresh: { procedure: renew, keep: true } }
  - { name: bob, credentials: { username: bob, password: bob-password }, procedure: login, refresh: { procedure: renew, keep: true } }
`;

const ROTATING_SPEC = `
import { test, expect } from 'playwright-multiauth';
for (const user of ['alice', 'bob']) {
  test.describe(() => {
    test.use({ authUser: user });
    test(user + ' through two expiries', async ({ authedRequest }) => {
      test.setTimeout(60_000);
      for (let round = 0; round < 3; round++) {
        if (round) await new Promise((resolve) => setTimeout(resolve, 5_000));
        expect((await (await authedRequest.get('/whoami')).json()).user).toBe(user);
      }
    });
  });
}
`;

test('rotation across shards: 4 shards through 2 expiries, one refresh per expiry, no invalid_grant', async ({ demo, demoEnv }) => {
  demo.clear();
  const env = { ...demoEnv, MULTIAUTH_STORE: redis.url.replace(/\/0$/, '/3'), MULTIAUTH_CACHE_KEY: key() };
  const runs = await Promise.all(Array.from({ length: 4 }, () => runInlineProject({ 'multiauth.yaml': ROTATING, 'rotate.spec.ts': ROTATING_SPEC }, { env })));
  for (const run of runs) expect(run.failed, run.output).toBe(0);
  // One sign-in per user in all; the demo counts a refresh as a sign-in too.
  expect(demo.seen.filter((r) => r.path === '/auth/token')).toHaveLength(2);
  const refreshes = demo.seen.filter((r) => r.path === '/auth/refresh').length;
  expect(demo.counters.signIns).toEqual({ alice: expect.any(Number), bob: expect.any(Number) });
  expect(totalSignIns(demo.counters.signIns)).toBe(2 + refreshes);
  // Two expiries per user, each refreshed by one shard (a slow machine may add a third).
  expect(refreshes).toBeGreaterThanOrEqual(4);
  expect(refreshes).toBeLessThanOrEqual(6);
});

test('a bundle from `login --all --out` lets 4 shards run with 0 sign-ins; a wrong key means new sign-ins', async ({ demo, demoEnv }) => {
  const cacheKey = key();
  const work = tempDir();
  const configFile = join(work, 'multiauth.yaml');
  writeFileSync(configFile, MULTI_CONFIG);
  // An existing folder (here a shared 1777 one) keeps its mode (issue 23, item 14).
  mkdirSync(join(work, 'bundle'));
  chmodSync(join(work, 'bundle'), 0o1777);
  demo.clear();
  const made = await runCliAsync(['login', '--all', '--out', 'bundle', '-c', configFile], { cwd: work, env: { ...demoEnv, MULTIAUTH_CACHE_KEY: cacheKey } });
  expect(made.code, made.stderr).toBe(0);
  expect(statSync(join(work, 'bundle')).mode & 0o7777).toBe(0o1777);
  expect(made.stdout).toContain('4 sessions written, sealed');
  expect(totalSignIns(demo.counters.signIns)).toBe(4);
  const bundle = join(work, 'bundle');
  for (const name of readdirSync(bundle).filter((n) => n.endsWith('.json'))) {
    const raw = readFileSync(join(bundle, name), 'utf8');
    expect(raw).toContain('"sealed":"mas1.');
    expect(raw).not.toMatch(JWT);
  }

  // (Not demo.clear(): the demo would forget dave's server-side session the bundle holds.)
  const fromBundle = await shards({ ...demoEnv, MULTIAUTH_CACHE_DIR: bundle, MULTIAUTH_CACHE_KEY: cacheKey });
  for (const shard of fromBundle) expect(shard.failed, shard.output).toBe(0);
  expect(totalSignIns(demo.counters.signIns)).toBe(4);

  // The same bundle with another key: no cached session opens, each user signs in again.
  const wrong = await shards({ ...demoEnv, MULTIAUTH_CACHE_DIR: bundle, MULTIAUTH_CACHE_KEY: key() }, 1);
  expect(wrong[0]?.failed, wrong[0]?.output).toBe(0);
  expect(totalSignIns(demo.counters.signIns)).toBe(8);
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
