import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createClient } from '@redis/client';
import { test, expect, MULTI_CONFIG } from './support.js';
import { runInlineProject } from '../support/inline-project.js';
import { startRedis, startSilentRedis } from '../support/servers/redis.js';
import { WHOAMI_USERS, WHOAMI_USERS_SPEC } from './support/whoami-users-spec.js';

// Issue 24, item 6: a store that does not answer costs seconds, not the run; rediss:// works.
test.describe.configure({ timeout: 180_000 });

const USERS = WHOAMI_USERS;
const SPEC = WHOAMI_USERS_SPEC;
const key = () => randomBytes(32).toString('base64');

test('a Redis that accepts connections and never answers: the run passes on the file store in under a minute', async ({ demo, demoEnv }) => {
  const silent = await startSilentRedis();
  try {
    demo.clear();
    const started = Date.now();
    const result = await runInlineProject({ 'multiauth.yaml': MULTI_CONFIG, 'silent.spec.ts': SPEC }, { env: { ...demoEnv, MULTIAUTH_STORE: silent.url, MULTIAUTH_CACHE_KEY: key() } });
    const seconds = (Date.now() - started) / 1000;
    expect(result.exitCode, result.output).toBe(0);
    expect(result.passed).toBe(4);
    expect(result.output).not.toContain('timeout');
    expect(seconds, result.output).toBeLessThan(60);
    expect(silent.connections()).toBeGreaterThan(0);
    // One warning per worker (two workers), naming the store and why.
    expect(result.output).toMatch(/the Redis session store redis:\/\/127\.0\.0\.1:\d+\/0 failed \(no answer within 3 s\)/);
    expect(demo.counters.signIns).toEqual({ alice: 1, bob: 1, carol: 1, dave: 1 });
  } finally {
    await silent.stop();
  }
});

test('rediss:// against redis-server on its TLS port, the CA given by NODE_EXTRA_CA_CERTS: one sign-in per user, sealed in Redis', async ({ demo, demoEnv }) => {
  const redis = await startRedis({ tls: true });
  try {
    expect(redis.url).toMatch(/^rediss:\/\//);
    demo.clear();
    const env = { ...demoEnv, MULTIAUTH_STORE: redis.url, MULTIAUTH_CACHE_KEY: key(), NODE_EXTRA_CA_CERTS: redis.caFile as string };
    const first = await runInlineProject({ 'multiauth.yaml': MULTI_CONFIG, 'tls.spec.ts': SPEC }, { env });
    expect(first.exitCode, first.output).toBe(0);
    expect(first.output).not.toContain('the Redis session store');
    // A second run (its own .auth/) finds every session in Redis.
    const second = await runInlineProject({ 'multiauth.yaml': MULTI_CONFIG, 'tls.spec.ts': SPEC }, { env });
    expect(second.exitCode, second.output).toBe(0);
    expect(demo.counters.signIns).toEqual({ alice: 1, bob: 1, carol: 1, dave: 1 });

    const client = createClient({ url: redis.url, socket: { tls: true, ca: readFileSync(redis.caFile as string) } });
    await client.connect();
    try {
      const keys = await client.keys('multiauth:session:*');
      expect(keys).toHaveLength(4);
      for (const name of keys) expect(await client.get(name)).toContain('"sealed":"mas1.');
    } finally {
      client.destroy();
    }
  } finally {
    await redis.stop();
  }
});

test('rediss:// without the CA: the run warns once per worker that the certificate is not trusted, and passes on the file store', async ({ demoEnv }) => {
  const redis = await startRedis({ tls: true });
  try {
    const result = await runInlineProject({ 'multiauth.yaml': MULTI_CONFIG, 'tls.spec.ts': SPEC }, { env: { ...demoEnv, MULTIAUTH_STORE: redis.url, MULTIAUTH_CACHE_KEY: key() } });
    expect(result.exitCode, result.output).toBe(0);
    expect(result.output).toMatch(/the Redis session store rediss:\/\/localhost:\d+\/0 failed \([^)]*certificate/);
  } finally {
    await redis.stop();
  }
});
