import { randomBytes } from 'node:crypto';
import { MULTI_CONFIG } from '../support.js';
import { runInlineProject, type InlineResult } from '../../support/inline-project.js';
import { WHOAMI_USERS_SPEC } from './whoami-users-spec.js';

// Issue 18: sharded runs on several machines share one sign-in per user. A shard is a Playwright
// run in its own working directory (its own .auth/), against the demo server with four users
// (alice, bob, carol through a token endpoint, dave through a form login). The shard files
// (shards, shard-locks, shard-rotation, shard-bundles) share these helpers.

/** A JWT the demo server issued (its tokens are JWTs): what must never be stored in clear. */
export const JWT = /eyJ[\w-]{10,}\.[\w-]{10,}\.[\w-]{10,}/;

/** A fresh MULTIAUTH_CACHE_KEY: 32 random bytes in base64. */
export const cacheKey = (): string => randomBytes(32).toString('base64');

/**
 * `count` shards at once, each a child Playwright run of the four-user spec in its own folder, with `env`.
 *
 * @example
 * const [shard] = await shards({ ...demoEnv, MULTIAUTH_STORE: redis.url, MULTIAUTH_CACHE_KEY: cacheKey() }, 1);
 */
export function shards(env: Record<string, string>, count = 4): Promise<InlineResult[]> {
  return Promise.all(Array.from({ length: count }, () => runInlineProject({ 'multiauth.yaml': MULTI_CONFIG, 'shard.spec.ts': WHOAMI_USERS_SPEC }, { env })));
}

/** The demo's sign-ins of every user together. */
export function totalSignIns(counters: Record<string, number>): number {
  return Object.values(counters).reduce((a, b) => a + b, 0);
}
