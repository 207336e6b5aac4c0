import { test, expect } from '@playwright/test';
import { readdirSync } from 'node:fs';
import { MultiAuthError } from '../../src/core/errors.js';
import { Redactor } from '../../src/core/redactor.js';
import type { Plan } from '../../src/compile/plan.js';
import { completeSession, refreshSignIn, signInUser } from '../../src/runtime/index.js';
import type { SignInResult } from '../../src/runtime/session/session.js';
import { FileBackend, SessionStore, userCacheKey, type SessionBackend } from '../../src/sessions/index.js';
import { RedisBackend } from '../../src/sessions/redis-backend.js';
import { startRedis } from '../support/servers/redis.js';
import { startDemoServer, type DemoServer } from '../../fixtures/demo-server/index.js';
import { planFromYaml } from '../support/plan.js';
import { tempDir, removeTempDirs } from '../support/temp-files.js';
import { freePort } from '../support/ports.js';
import { whoami } from '../support/whoami.js';

// Issue 24, item 1: a refresh token the server revoked ("log out everywhere") must not fail the
// user for good. The store refreshes under its lock; the refused refresh becomes one sign-in.

test.afterAll(() => removeTempDirs());

/** A generic user of the demo's token endpoint, refreshed by its own procedure with keep: false. */
function config(url: string): string {
  return `
procedures:
  - name: login
    operations:
      - tech: http
        parameters: { url: ${url}/auth/token, method: POST, body: { username: "{{username}}", password: "{{password}}" } }
        extractions:
          - { name: access_token, location: body, key: data.auth.access_token }
          - { name: refresh_token, location: body, key: data.auth.refresh_token }
          - { name: expires_in, location: body, key: data.auth.expires_in }
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: access_token }]
  - name: x-refresh
    operations:
      - tech: http
        parameters: { url: ${url}/auth/refresh, method: POST, body: { refresh_token: "{{refresh_token}}" } }
        extractions:
          - { name: access_token, location: body, key: data.auth.access_token }
          - { name: refresh_token, location: body, key: data.auth.refresh_token }
          - { name: expires_in, location: body, key: data.auth.expires_in }
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: access_token }]
users:
  - name: alice
    procedure: login
    credentials: { username: alice, password: alice-password }
    refresh: { procedure: x-refresh, keep: false }
`;
}

/** A store of run `run` in `dir` over the real runtime, its clock `offset()` ms ahead of now. */
function storeOf(plan: Plan, dir: string, run: string, offset: () => number, backend?: SessionBackend): SessionStore {
  const redactor = new Redactor();
  return new SessionStore(
    { dir, run, ...(backend ? { backend } : {}), scopeKey: (user) => userCacheKey(plan, plan.users.find((u) => u.name === user)!), now: () => Date.now() + offset() },
    { signIn: (user) => signInUser(plan, user, { redactor }), refresh: (session) => refreshSignIn(plan, session, { redactor }) },
  );
}

/** The demo's "log out everywhere", as the session's user: every refresh token of the user dies. */
async function logOutEverywhere(url: string, session: SignInResult, plan: Plan): Promise<void> {
  const headers = (await completeSession(plan, session)).headers;
  const response = await fetch(`${url}/auth/logout-all`, { method: 'POST', headers: { authorization: String(headers.Authorization?.[0]) } });
  expect(await response.json()).toEqual({ ended: 1 });
}

/** Ten seconds before a one-hour token ends: the store must refresh it. */
const NEAR_EXPIRY_MS = 3_590_000;

test('a generic user whose refresh token was revoked server-side signs in once in the same run; the next run uses that session', async () => {
  const demo = await startDemoServer();
  try {
    const plan = planFromYaml(config(demo.url));
    const dir = tempDir();
    let offset = 0;
    const run1 = storeOf(plan, dir, 'run-1', () => offset);
    const first = await run1.get('alice');
    expect(first.source).toBe('fresh');
    await logOutEverywhere(demo.url, first.session, plan);

    offset = NEAR_EXPIRY_MS;
    const recovered = await run1.get('alice');
    expect(recovered.source).toBe('refreshed');
    expect(recovered.session.origin).toBe('signed-in');
    expect(demo.counters.endpoints).toMatchObject({ 'POST /auth/token': 2, 'POST /auth/refresh': 1 });
    expect(await whoami(demo.url, await completeSession(plan, recovered.session))).toMatchObject({ status: 200, user: 'alice' });
    offset = 0; // the new session is an hour from its end
    expect((await run1.get('alice')).source).toBe('memo');

    const run2 = storeOf(plan, dir, 'run-2', () => offset);
    const next = await run2.get('alice');
    expect(next.source).toBe('cached');
    expect(next.session.variables.access_token).toBe(recovered.session.variables.access_token);
    expect(demo.counters.endpoints).toMatchObject({ 'POST /auth/token': 2, 'POST /auth/refresh': 1 });
    expect(readdirSync(dir).filter((name) => name.endsWith('.failed'))).toEqual([]);
  } finally {
    await demo.stop();
  }
});

for (const kind of ['file', 'redis'] as const) {
  test(`a refresh that fails and a sign-in that fails too: the session is deleted from the ${kind} store, the failure remembered for this run only`, async () => {
    const redis = kind === 'redis' ? await startRedis() : undefined;
    const port = await freePort();
    let demo: DemoServer | undefined = await startDemoServer({ port });
    try {
      const plan = planFromYaml(config(demo.url));
      const key = userCacheKey(plan, plan.users[0]!);
      const dir = tempDir();
      const backend: SessionBackend = redis
        ? new RedisBackend({ url: redis.url, plaintext: true, fallback: new FileBackend({ dir }), warn: () => undefined })
        : new FileBackend({ dir });
      const slot = backend.slot('alice', key);
      let offset = 0;
      const store = (run: string) => storeOf(plan, dir, run, () => offset, backend);
      await store('run-1').get('alice');
      expect(await backend.read(slot, key)).toBeDefined();
      await demo.stop(); // the server is gone: the refresh fails, and so does the sign-in after it
      demo = undefined;

      offset = NEAR_EXPIRY_MS;
      const error = await store('run-1').get('alice').then(() => undefined, (e: unknown) => e as MultiAuthError);
      expect(error).toMatchObject({ code: 'AUTH_NETWORK', context: { user: 'alice', procedure: 'login' } });
      expect(error?.details.at(-1)).toBe('This sign-in replaced a refresh that failed first: AUTH_NETWORK in procedure "x-refresh", step 1.');
      expect(await backend.read(slot, key)).toBeUndefined();
      expect(await backend.readFailure(slot, 'run-1')).toBeDefined();
      if (kind === 'file') expect(readdirSync(dir).filter((name) => name.endsWith('.json'))).toEqual([]);

      demo = await startDemoServer({ port });
      const next = await storeOf(plan, dir, 'run-2', () => 0, backend).get('alice');
      expect(next.source).toBe('fresh');
      expect(demo.counters.endpoints).toEqual({ 'POST /auth/token': 1 });
      await backend.close();
    } finally {
      await demo?.stop();
      await redis?.stop();
    }
  });
}
