import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from '@redis/client';
import { test, expect } from './support.js';
import { inlineConfig, runInlineProject } from '../support/inline-project.js';
import { startRedis } from '../support/servers/redis.js';
import { ROOT } from '../support/root.js';
import { enrolPasskey, passkeyLoginProject, serverCounter, testPasskey, type TestPasskey } from '../support/passkey-keys.js';
import { findLeaks, outputFiles } from '../audit/secrets.js';
import { sealerFromEnv } from '../../src/sessions/seal.js';

// Issue 28 through the fixtures, in child runs: the seeded passkey in the sign-in and in the test's
// page, the counter across three runs with one store (the file store for alice, Redis for bob, side
// by side: one child run a round, two projects), a passkey the app registers (dave) captured by the
// first run and used by the next ones instead of the password, and the leak audit: the private keys
// planted in the environment (alice's, bob's; carol's, whose rp_id is wrong so her sign-in fails) and
// made by the page (dave's) appear in no output, report, trace or attachment of those runs; the
// stores hold them sealed (MULTIAUTH_CACHE_KEY) or not at all.
test.describe.configure({ timeout: 300_000 });

const passkey = (key: TestPasskey, name: string, rpId = '127.0.0.1') => `
        passkey: { rp_id: "${rpId}", id: ${key.id}, user_handle: ${key.userHandle}, private_key: "\${${name}}", public_key: ${key.publicKey} }`;

function config(keys: Record<'alice' | 'bob' | 'carol', TestPasskey>): string {
  return `
presets:
  - type: webdriver
    users:
      - username: alice
        project: ${passkeyLoginProject('${DEMO_URL}')}${passkey(keys.alice, 'ALICE_PASSKEY')}
      - username: bob
        project: ${passkeyLoginProject('${DEMO_URL}')}${passkey(keys.bob, 'BOB_PASSKEY')}
      - username: carol
        project: ${passkeyLoginProject('${DEMO_URL}', undefined, 2000)}${passkey(keys.carol, 'CAROL_PASSKEY', 'elsewhere.test')}
      - username: dave
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
                - { id: c12, command: end, target: "" }
`;
}

/** A test of `user` that opens the app, then signs in again with the passkey in its own page. */
const userTest = (user: string) => `
test.describe('${user}', () => {
  test.use({ authUser: '${user}' });
  test('signed in by the passkey; the test page signs in with it again', async ({ page }) => {
    await page.goto('/app');
    await expect(page.locator('#status')).toHaveAttribute('data-signed-in', '${user}');
    await page.goto('/passkeys/login');
    await page.click('#passkey-sign-in');
    await expect(page.locator('#status')).toHaveAttribute('data-signed-in', '${user}');
  });
});`;

// Each project's worker picks its store from its own environment (the fixtures read
// process.env): one spec file a project, each setting it when its worker loads it.
const fileSpec = (withCarol: boolean) => `
import { test, expect } from 'playwright-multiauth';
delete process.env.MULTIAUTH_STORE;
${userTest('alice')}
${withCarol ? userTest('carol') : ''}
test.describe('dave', () => {
  test.use({ authUser: 'dave' });
  test('signed in', async ({ page }) => {
    await page.goto('/app');
    await expect(page.locator('#status')).toHaveAttribute('data-signed-in', 'dave');
  });
});
`;
const redisSpec = `
import { test, expect } from 'playwright-multiauth';
process.env.MULTIAUTH_STORE = process.env.REDIS_URL;
${userTest('bob')}
`;
const PLAYWRIGHT_CONFIG = inlineConfig(`projects: [{ name: 'file', testMatch: 'file.spec.ts' }, { name: 'redis', testMatch: 'redis.spec.ts' }],`)
  .replace('use: {', "use: { trace: 'on', screenshot: 'on',");

test('three rounds, one child run each, traces on: alice (file store) and bob (Redis) continue their counters; dave registers once, then signs in with no password; carol\'s wrong rp_id fails; no private key anywhere, the stores sealed', async ({ demo, demoEnv }) => {
  demo.clear();
  const redis = await startRedis();
  try {
    const keys = { alice: testPasskey(), bob: testPasskey(), carol: testPasskey() };
    for (const [user, key] of Object.entries(keys)) await enrolPasskey(demo.url, user, key);
    mkdirSync(join(ROOT, '.tmp-inline'), { recursive: true });
    const dir = mkdtempSync(join(ROOT, '.tmp-inline', 'passkeys-'));
    const env = {
      ...demoEnv, ALICE_PASSKEY: keys.alice.privateKey, BOB_PASSKEY: keys.bob.privateKey, CAROL_PASSKEY: keys.carol.privateKey, DAVE_PASSWORD: 'dave-password',
      // Every round signs in afresh: the counters come from the passkey records, not from sessions.
      MULTIAUTH_CACHE: 'off', REDIS_URL: redis.url, MULTIAUTH_CACHE_KEY: randomBytes(32).toString('base64'),
    };
    const authDir = join(dir, '.auth');
    let daveKey = '';
    for (let round = 1; round <= 3; round++) {
      // One worker: one browser at a time, on a machine the suite shares (two workers were hardly faster).
      const result = await runInlineProject(
        { 'multiauth.yaml': config(keys), 'file.spec.ts': fileSpec(round === 1), 'redis.spec.ts': redisSpec, 'playwright.config.ts': PLAYWRIGHT_CONFIG },
        { env, args: ['--workers=1'], dir },
      );
      expect(result.passed, result.output).toBe(3);
      expect(result.failed, result.output).toBe(round === 1 ? 1 : 0);
      if (round === 1) expect(result.output).toContain('the passkey of user "carol" is for rp_id "elsewhere.test"');
      // Two assertions a round each (the sign-in, the test page); the file store for alice, Redis for bob.
      expect(await serverCounter(demo.url, 'alice', keys.alice.id)).toBe(2 * round);
      expect(await serverCounter(demo.url, 'bob', keys.bob.id)).toBe(2 * round);
      // The password was posted once, by the run that registered dave's passkey; carol's page found no credential.
      expect(demo.counters.endpoints['POST /login']).toBe(1);
      expect(demo.counters.endpoints['POST /passkeys/register/verify']).toBe(1);
      expect(demo.counters.endpoints['POST /passkeys/authenticate/verify']).toBe(4 * round + (round - 1));

      // Bob's records are in Redis only: his counter did not come from the folder.
      const names = readdirSync(authDir);
      expect(names.filter((name) => name.startsWith('bob-'))).toEqual([]);
      // The file store is sealed; dave's registered key is kept in it, alice's seeded one is not.
      const records = names.filter((name) => name.endsWith('.json'));
      const stored = records.map((name) => readFileSync(join(authDir, name), 'utf8'));
      expect(stored.length).toBeGreaterThan(0);
      for (const text of stored) {
        expect(text).toContain('"sealed":"mas1.');
        expect(text).not.toContain(keys.alice.privateKey);
      }
      const sealer = sealerFromEnv(env);
      const opened = records.flatMap((name, i) => {
        const text = sealer?.open((JSON.parse(stored[i] as string) as { sealed?: string }).sealed, name);
        return text === undefined ? [] : [JSON.parse(text) as { user: string; passkey?: { privateKey?: string } }];
      });
      const kept = opened.find((session) => session.user === 'dave' && session.passkey?.privateKey)?.passkey?.privateKey ?? '';
      expect(kept, 'dave\'s registered passkey is kept, sealed').toMatch(/^[A-Za-z0-9_-]{100,}$/);
      if (round === 1) daveKey = kept;
      expect(kept, 'the same passkey every round').toBe(daveKey);
      expect(opened.filter((session) => session.user === 'alice').every((session) => session.passkey?.privateKey === undefined)).toBe(true);

      const outputs = [{ name: 'output', text: result.output }, ...outputFiles(dir, ['multiauth.yaml', '.auth'])];
      expect(outputs.some((file) => file.name.includes('trace.zip#zip'))).toBe(true);
      expect(findLeaks(outputs, [keys.alice.privateKey, keys.bob.privateKey, keys.carol.privateKey, daveKey])).toEqual([]);
    }

    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      const names = await client.keys('*');
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) {
        const value = (await client.type(name)) === 'string' ? ((await client.get(name)) ?? '') : '';
        expect(value, name).not.toContain(keys.bob.privateKey);
      }
    } finally {
      client.destroy();
    }
  } finally {
    await redis.stop();
  }
});
