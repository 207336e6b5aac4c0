import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { startDemoServer } from '../fixtures/demo-server/index.js';
import { startRedis } from '../tests/support/servers/redis.js';
import type { BenchResult } from './stats.js';
import { benchRoot, oursSpec, runSuite, SUITE_USERS, writeProject } from './suite.js';

const SHARDS = 4;

/**
 * Sign-ins in one sharded run: {@link SHARDS} Playwright runs at once, each in its own working
 * directory (its own `.auth/`, as on separate CI machines), the 4-user suite each, sharing a Redis
 * session store (`MULTIAUTH_STORE`, sealed with `MULTIAUTH_CACHE_KEY`); beside the same shards with
 * a file store each. The aim: one sign-in per user for all the shards, a quarter of the peer's.
 *
 * @example
 * const { ours, peer } = await benchShardSignIns(); // 4, 16
 */
export async function benchShardSignIns(): Promise<BenchResult> {
  const demo = await startDemoServer();
  const redis = await startRedis();
  const count = () => Object.values(demo.counters.signIns).reduce((a, b) => a + b, 0);
  const run = async (label: string, env: Record<string, string>): Promise<number> => {
    const before = count();
    await Promise.all(
      Array.from({ length: SHARDS }, (_, shard) => {
        const dir = join(benchRoot, `shards-${label}-${shard}`);
        writeProject(dir, oursSpec, 40);
        return runSuite(dir, { DEMO_URL: demo.url, BENCH_WORKERS: '2', ...env });
      }),
    );
    return count() - before;
  };
  try {
    const ours = await run('redis', { MULTIAUTH_STORE: redis.url, MULTIAUTH_CACHE_KEY: randomBytes(32).toString('base64') });
    const peer = await run('files', {});
    return {
      name: `sign-ins per run, ${SHARDS} shards × ${SUITE_USERS.length} users (Redis store vs a file store per shard)`,
      ours,
      peer,
      unit: 'sign-ins',
      ratio: ours / peer,
      aim: 1 / SHARDS,
    };
  } finally {
    await redis.stop();
    await demo.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await benchShardSignIns();
  console.log(`${r.name}: ours ${r.ours}, peer ${r.peer}, ratio ${r.ratio.toFixed(3)} (aim ${r.aim})`);
}
