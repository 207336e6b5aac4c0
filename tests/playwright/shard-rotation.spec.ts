import { test, expect } from './support.js';
import { runInlineProject } from '../support/inline-project.js';
import { startRedis, type RedisServer } from '../support/servers/redis.js';
import { cacheKey, totalSignIns } from './support/shards.js';

// Issue 18, rotation across shards (support/shards.ts).
test.describe.configure({ timeout: 240_000 });

let redis: RedisServer;
test.beforeAll(async () => {
  redis = await startRedis();
});
test.afterAll(async () => {
  await redis?.stop();
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
  const env = { ...demoEnv, MULTIAUTH_STORE: redis.url, MULTIAUTH_CACHE_KEY: cacheKey() };
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
