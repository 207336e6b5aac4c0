import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from '@redis/client';
import { test, expect } from './support.js';
import { inlineConfig, runInlineProject, type InlineResult } from '../support/inline-project.js';
import { startRedis } from '../support/servers/redis.js';
import { ROOT } from '../support/root.js';
import { enrolPasskey, passkeyLoginProject, serverCounter, testPasskey, type TestPasskey } from '../support/passkey-keys.js';
import { findLeaks, outputFiles } from '../audit/secrets.js';
import { sealerFromEnv } from '../../src/sessions/seal.js';

// Issue 28 through the fixtures, in child runs: the seeded passkey in the sign-in and in the test's
// page, the counter across two runs with one store (the file store for alice, Redis for bob, one
// test each, so that they run side by side), a passkey the app registers (dave) captured by the
// first run and used by the second instead of the password, and the leak audit: the private keys
// planted in the environment (alice's, bob's; carol's, whose rp_id is wrong so her sign-in fails)
// and made by the page (dave's) appear in no output, report, trace or attachment of those runs; the
// stores hold them sealed (MULTIAUTH_CACHE_KEY) or not at all. Two runs a store, not more: the
// second continues what the first left, and a third would only repeat the second.
test.describe.configure({ timeout: 300_000 });

const passkey = (key: TestPasskey, name: string, rpId = '127.0.0.1') => `
        passkey: { rp_id: "${rpId}", id: ${key.id}, user_handle: ${key.userHandle}, private_key: "\${${name}}", public_key: ${key.publicKey} }`;

const DAVE = `
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

function fileConfig(keys: Record<'alice' | 'carol', TestPasskey>): string {
  return `
presets:
  - type: webdriver
    users:
      - username: alice
        project: ${passkeyLoginProject('${DEMO_URL}')}${passkey(keys.alice, 'ALICE_PASSKEY')}
      - username: carol
        project: ${passkeyLoginProject('${DEMO_URL}', undefined, 2000)}${passkey(keys.carol, 'CAROL_PASSKEY', 'elsewhere.test')}${DAVE}`;
}

const redisConfig = (bob: TestPasskey) => `
presets:
  - type: webdriver
    users:
      - username: bob
        project: ${passkeyLoginProject('${DEMO_URL}')}${passkey(bob, 'BOB_PASSKEY')}
`;

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

const fileSpec = (withCarol: boolean) => `
import { test, expect } from 'playwright-multiauth';
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
${userTest('bob')}
`;
const PLAYWRIGHT_CONFIG = inlineConfig().replace('use: {', "use: { trace: 'on', screenshot: 'on',");

/** A fresh folder for a test's two runs: the second run reads the store the first one left. */
function runDir(): string {
  mkdirSync(join(ROOT, '.tmp-inline'), { recursive: true });
  return mkdtempSync(join(ROOT, '.tmp-inline', 'passkeys-'));
}

/** Environment of a test's runs: every run signs in afresh, so the counters come from the passkey records, not from sessions. */
const freshSignIns = (demoEnv: Record<string, string>) => ({ ...demoEnv, MULTIAUTH_CACHE: 'off', MULTIAUTH_CACHE_KEY: randomBytes(32).toString('base64') });

/** The records of a run's `.auth` folder, opened with the run's MULTIAUTH_CACHE_KEY; asserts each is sealed and holds none of `privateKeys`. */
function openedRecords(authDir: string, env: Record<string, string>, privateKeys: string[]): Array<{ user: string; passkey?: { id?: string; privateKey?: string; signCount?: number } }> {
  const records = readdirSync(authDir).filter((name) => name.endsWith('.json'));
  const stored = records.map((name) => readFileSync(join(authDir, name), 'utf8'));
  for (const text of stored) {
    expect(text).toContain('"sealed":"mas1.');
    for (const key of privateKeys) expect(text).not.toContain(key);
  }
  const sealer = sealerFromEnv(env);
  return records.flatMap((name, i) => {
    const text = sealer?.open((JSON.parse(stored[i] as string) as { sealed?: string }).sealed, name);
    return text === undefined ? [] : [JSON.parse(text) as { user: string; passkey?: { id?: string; privateKey?: string; signCount?: number } }];
  });
}

/** Asserts that no private key of `keys` is in anything `result`'s run printed or wrote, traces included. */
function expectNoLeak(result: InlineResult, dir: string, keys: string[]): void {
  const outputs = [{ name: 'output', text: result.output }, ...outputFiles(dir, ['multiauth.yaml', '.auth'])];
  expect(outputs.some((file) => file.name.includes('trace.zip#zip'))).toBe(true);
  expect(findLeaks(outputs, keys)).toEqual([]);
}

test('file store, two runs with traces on: alice continues her counter; dave registers once, then signs in with no password; carol\'s wrong rp_id fails; no private key anywhere, the store sealed', async ({ demo, demoEnv }) => {
  demo.clear();
  const keys = { alice: testPasskey(), carol: testPasskey() };
  for (const [user, key] of Object.entries(keys)) await enrolPasskey(demo.url, user, key);
  const dir = runDir();
  const env = { ...freshSignIns(demoEnv), ALICE_PASSKEY: keys.alice.privateKey, CAROL_PASSKEY: keys.carol.privateKey, DAVE_PASSWORD: 'dave-password' };
  const authDir = join(dir, '.auth');
  let daveKey = '';
  for (let round = 1; round <= 2; round++) {
    const result = await runInlineProject({ 'multiauth.yaml': fileConfig(keys), 'file.spec.ts': fileSpec(round === 1), 'playwright.config.ts': PLAYWRIGHT_CONFIG }, { env, args: ['--workers=1'], dir });
    expect(result.passed, result.output).toBe(2);
    expect(result.failed, result.output).toBe(round === 1 ? 1 : 0);
    if (round === 1) expect(result.output).toContain('the passkey of user "carol" is for rp_id "elsewhere.test"');
    // Two assertions a round (the sign-in, the test page), continued from the file store.
    expect(await serverCounter(demo.url, 'alice', keys.alice.id)).toBe(2 * round);
    // The password was posted once, by the run that registered dave's passkey; carol's page found no credential.
    expect(demo.counters.endpoints['POST /login']).toBe(1);
    expect(demo.counters.endpoints['POST /passkeys/register/verify']).toBe(1);
    expect(demo.counters.endpoints['POST /passkeys/authenticate/verify']).toBe(2 * round + (round - 1));

    // The file store is sealed; dave's registered key is kept in it, alice's seeded one is not.
    const opened = openedRecords(authDir, env, [keys.alice.privateKey]);
    expect(opened.length).toBeGreaterThan(0);
    const dave = opened.find((session) => session.user === 'dave' && session.passkey?.privateKey)?.passkey;
    const kept = dave?.privateKey ?? '';
    expect(kept, 'dave\'s registered passkey is kept, sealed').toMatch(/^[A-Za-z0-9_-]{100,}$/);
    if (round === 1) daveKey = kept;
    expect(kept, 'the same passkey every round').toBe(daveKey);
    // What a third run would sign in with: the counter the relying party saw last, kept after a
    // sign-in with the registered passkey as after its registration.
    expect(dave?.signCount).toBe(await serverCounter(demo.url, 'dave', dave?.id ?? ''));
    if (round === 2) expect(dave?.signCount).toBeGreaterThan(0);
    expect(opened.filter((session) => session.user === 'alice').every((session) => session.passkey?.privateKey === undefined)).toBe(true);

    expectNoLeak(result, dir, [keys.alice.privateKey, keys.carol.privateKey, daveKey]);
  }
});

test('Redis store, two runs with traces on: bob continues his counter from Redis alone; no private key in any output or in Redis', async ({ demo, demoEnv }) => {
  demo.clear();
  const redis = await startRedis();
  try {
    const bob = testPasskey();
    await enrolPasskey(demo.url, 'bob', bob);
    const dir = runDir();
    const env = { ...freshSignIns(demoEnv), BOB_PASSKEY: bob.privateKey, MULTIAUTH_STORE: redis.url };
    for (let round = 1; round <= 2; round++) {
      const result = await runInlineProject({ 'multiauth.yaml': redisConfig(bob), 'redis.spec.ts': redisSpec, 'playwright.config.ts': PLAYWRIGHT_CONFIG }, { env, args: ['--workers=1'], dir });
      expect(result.passed, result.output).toBe(1);
      expect(result.failed, result.output).toBe(0);
      expect(await serverCounter(demo.url, 'bob', bob.id)).toBe(2 * round);
      expect(demo.counters.endpoints['POST /login'] ?? 0).toBe(0);
      expect(demo.counters.endpoints['POST /passkeys/authenticate/verify']).toBe(2 * round);
      // Bob's records are in Redis only: his counter did not come from the folder.
      const authDir = join(dir, '.auth');
      const names = readdirSync(authDir, { withFileTypes: true }).map((entry) => entry.name);
      expect(names.filter((name) => name.startsWith('bob-'))).toEqual([]);
      expectNoLeak(result, dir, [bob.privateKey]);
    }

    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      const names = await client.keys('*');
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) {
        const value = (await client.type(name)) === 'string' ? ((await client.get(name)) ?? '') : '';
        expect(value, name).not.toContain(bob.privateKey);
      }
    } finally {
      client.destroy();
    }
  } finally {
    await redis.stop();
  }
});
