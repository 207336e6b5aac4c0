import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, MULTI_CONFIG } from './support.js';
import { runCliAsync } from '../support/cli.js';
import { removeTempDirs, tempDir } from '../support/temp-files.js';
import { cacheKey, JWT, shards, totalSignIns } from './support/shards.js';

test.afterAll(removeTempDirs);

// Issue 18, a session bundle for the shards (support/shards.ts): no Redis, a sealed folder.
test.describe.configure({ timeout: 240_000 });

test('a bundle from `login --all --out` lets 4 shards run with 0 sign-ins; a wrong key means new sign-ins', async ({ demo, demoEnv }) => {
  const sealKey = cacheKey();
  const work = tempDir();
  const configFile = join(work, 'multiauth.yaml');
  writeFileSync(configFile, MULTI_CONFIG);
  // An existing folder (here a shared 1777 one) keeps its mode (issue 23, item 14).
  mkdirSync(join(work, 'bundle'));
  chmodSync(join(work, 'bundle'), 0o1777);
  demo.clear();
  const made = await runCliAsync(['login', '--all', '--out', 'bundle', '-c', configFile], { cwd: work, env: { ...demoEnv, MULTIAUTH_CACHE_KEY: sealKey } });
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
  const fromBundle = await shards({ ...demoEnv, MULTIAUTH_CACHE_DIR: bundle, MULTIAUTH_CACHE_KEY: sealKey });
  for (const shard of fromBundle) expect(shard.failed, shard.output).toBe(0);
  expect(totalSignIns(demo.counters.signIns)).toBe(4);

  // The same bundle with another key: no cached session opens, each user signs in again.
  const wrong = await shards({ ...demoEnv, MULTIAUTH_CACHE_DIR: bundle, MULTIAUTH_CACHE_KEY: cacheKey() }, 1);
  expect(wrong[0]?.failed, wrong[0]?.output).toBe(0);
  expect(totalSignIns(demo.counters.signIns)).toBe(8);
});
