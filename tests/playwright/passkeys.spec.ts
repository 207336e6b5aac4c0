import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from '@redis/client';
import { test, expect } from './support.js';
import { runInlineProject, type InlineResult } from '../support/inline-project.js';
import { startRedis } from '../support/servers/redis.js';
import { ROOT } from '../support/root.js';
import { enrolPasskey, passkeyLoginProject, serverCounter, testPasskey, type TestPasskey } from '../support/passkey-keys.js';

// Issue 28 through the fixtures, in child runs: the seeded passkey in the sign-in and in the test's
// page, the counter across three runs with one store (file, then Redis), and a passkey the app
// registers captured by the first run and used by the next ones instead of the password.
test.describe.configure({ timeout: 240_000 });

function config(alice: TestPasskey, withDave: boolean): string {
  return `
presets:
  - type: webdriver
    users:
      - username: alice
        project: ${passkeyLoginProject('${DEMO_URL}')}
        passkey:
          rp_id: 127.0.0.1
          id: ${alice.id}
          user_handle: ${alice.userHandle}
          private_key: "\${ALICE_PASSKEY}"
          public_key: ${alice.publicKey}
${withDave ? `      - username: dave
        password: "\${DAVE_PASSWORD}"
        passkey: register
        project:
          tests:
            - id: t
              name: register once, then sign in with the passkey
              commands:
                - { id: c1, command: if, target: "\${passkey_id} === ''" }
                - { id: c2, command: open, target: "\${DEMO_URL}/login?next=/passkeys/register" }
                - { id: c3, command: type, target: "id=username", value: "dave" }
                - { id: c4, command: type, target: "id=password", value: "{{password}}" }
                - { id: c5, command: click, target: "css=button[type=submit]" }
                - { id: c6, command: click, target: "id=create-passkey" }
                - { id: c7, command: waitForElementPresent, target: "css=#status[data-registered]", value: "5000" }
                - { id: c8, command: else, target: "" }
                - { id: c9, command: open, target: "\${DEMO_URL}/passkeys/login" }
                - { id: c10, command: click, target: "id=passkey-sign-in" }
                - { id: c11, command: waitForElementPresent, target: "css=#status[data-signed-in]", value: "5000" }
                - { id: c12, command: end, target: "" }` : ''}
`;
}

const SPEC = (withDave: boolean) => `
import { test, expect } from 'playwright-multiauth';

test.describe('alice', () => {
  test.use({ authUser: 'alice' });
  test('signed in by her passkey; her test page signs in with it again', async ({ page }) => {
    await page.goto('/app');
    await expect(page.locator('#status')).toHaveAttribute('data-signed-in', 'alice');
    await page.goto('/passkeys/login');
    await page.click('#passkey-sign-in');
    await expect(page.locator('#status')).toHaveAttribute('data-signed-in', 'alice');
  });
});
${withDave ? `
test.describe('dave', () => {
  test.use({ authUser: 'dave' });
  test('signed in', async ({ page }) => {
    await page.goto('/app');
    await expect(page.locator('#status')).toHaveAttribute('data-signed-in', 'dave');
  });
});` : ''}
`;

async function threeRuns(files: Record<string, string>, env: Record<string, string>, dirs: () => string | undefined, after: (run: number, result: InlineResult) => Promise<void>): Promise<void> {
  for (let run = 1; run <= 3; run++) {
    const dir = dirs();
    // One worker: one browser a run, on a machine the suite shares.
    const result = await runInlineProject(files, { env, args: ['--workers=1'], ...(dir ? { dir } : {}) });
    expect(result.exitCode, result.output).toBe(0);
    await after(run, result);
  }
}

test('file store: three runs; alice\'s counter grows by two a run (sign-in, test page); dave registers once, then signs in with no password', async ({ demo, demoEnv }) => {
  const alice = testPasskey();
  await enrolPasskey(demo.url, 'alice', alice);
  mkdirSync(join(ROOT, '.tmp-inline'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, '.tmp-inline', 'passkeys-'));
  const env = { ...demoEnv, ALICE_PASSKEY: alice.privateKey, DAVE_PASSWORD: 'dave-password', MULTIAUTH_CACHE: 'off' };
  await threeRuns({ 'multiauth.yaml': config(alice, true), 'passkeys.spec.ts': SPEC(true) }, env, () => dir, async (run, result) => {
    expect(result.passed).toBe(2);
    expect(await serverCounter(demo.url, 'alice', alice.id)).toBe(2 * run);
    // The password was posted once, by the run that registered the passkey.
    expect(demo.counters.endpoints['POST /login']).toBe(1);
    expect(demo.counters.endpoints['POST /passkeys/register/verify']).toBe(1);
    expect(demo.counters.endpoints['POST /passkeys/authenticate/verify']).toBe(2 * run + (run - 1));
  });
  // Nothing in the cache holds alice's private key (the config does); dave's registered one is in his session record.
  for (const name of readdirSync(join(dir, '.auth'))) {
    const text = readFileSync(join(dir, '.auth', name), 'utf8');
    expect(text, name).not.toContain(alice.privateKey);
  }
});

test('Redis store, sealed: three runs from fresh folders continue alice\'s counter from Redis; no private key in Redis', async ({ demo, demoEnv }) => {
  const redis = await startRedis();
  try {
    const alice = testPasskey();
    await enrolPasskey(demo.url, 'alice', alice);
    const env = { ...demoEnv, ALICE_PASSKEY: alice.privateKey, MULTIAUTH_CACHE: 'off', MULTIAUTH_STORE: redis.url, MULTIAUTH_CACHE_KEY: randomBytes(32).toString('base64') };
    await threeRuns({ 'multiauth.yaml': config(alice, false), 'passkeys.spec.ts': SPEC(false) }, env, () => undefined, async (run, result) => {
      expect(result.passed).toBe(1);
      expect(await serverCounter(demo.url, 'alice', alice.id)).toBe(2 * run);
    });
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      const keys = await client.keys('*');
      expect(keys.length).toBeGreaterThan(0);
      for (const name of keys) {
        const value = (await client.type(name)) === 'string' ? ((await client.get(name)) ?? '') : '';
        expect(value, name).not.toContain(alice.privateKey);
      }
    } finally {
      client.destroy();
    }
  } finally {
    await redis.stop();
  }
});
