import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from '@redis/client';
import { test, expect } from '@playwright/test';
import { startDemoServer, type DemoServer } from '../../fixtures/demo-server/index.js';
import { inlineConfig, projectResults, runInlineProject, type InlineResult, type ProjectResult } from '../support/inline-project.js';
import { inlineBase } from '../support/inline-package.js';
import { startRedis, type RedisServer } from '../support/servers/redis.js';
import { enrolPasskey, passkeyLoginProject, serverCounter, testPasskey, type TestPasskey } from '../support/passkey-keys.js';
import { findLeaks, outputFiles, type OutputFile } from '../audit/secrets.js';
import { sealerFromEnv } from '../../src/sessions/seal.js';

// Issue 28 through the fixtures, in child runs: the seeded passkey in the sign-in and in the test's
// page, the counter across two runs with one store (the file store for alice, Redis for bob: two
// projects of the same two child runs, side by side, each against its own demo server so that
// its counters are its own), a passkey the app registers (dave) captured by the
// first run and used by the second instead of the password, and the leak audit: the private keys
// planted in the environment (alice's, bob's; carol's, whose rp_id is wrong so her sign-in fails)
// and made by the page (dave's) appear in no output, report, trace or attachment of those runs; the
// stores hold them sealed (MULTIAUTH_CACHE_KEY) or not at all. Two runs a store, not more: the
// second continues what the first left, and a third would only repeat the second. The runs are
// made once, before the tests; each test reads its store's part of them.
test.describe.configure({ mode: 'default', timeout: 300_000 });

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

/** bob's config: his demo server's URL written in, since DEMO_URL is the file project's. */
const redisConfig = (bob: TestPasskey, url: string) => `
presets:
  - type: webdriver
    users:
      - username: bob
        project: ${passkeyLoginProject(url)}${passkey(bob, 'BOB_PASSKEY')}
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
// MULTIAUTH_STORE is read per process: set in this project's workers (which run no other project),
// never in the runner, whose environment the file project's workers inherit.
if (process.env.TEST_WORKER_INDEX !== undefined) process.env.MULTIAUTH_STORE = process.env.BOB_STORE;
${userTest('bob')}
`;
const PLAYWRIGHT_CONFIG = inlineConfig(`projects: [
    { name: 'file', testDir: 'file', use: { authConfig: 'file/multiauth.yaml' } },
    { name: 'redis', testDir: 'redis', use: { authConfig: 'redis/multiauth.yaml', baseURL: process.env.BOB_DEMO_URL } },
  ],`).replace('use: {', "use: { trace: 'on', screenshot: 'on',");

/** A fresh folder for the two runs: the second run reads the stores the first one left. */
function runDir(): string {
  return mkdtempSync(join(inlineBase(), 'passkeys-'));
}

/** Environment of the runs: every run signs in afresh, so the counters come from the passkey records, not from sessions. */
const freshSignIns = (demoEnv: Record<string, string>) => ({ ...demoEnv, MULTIAUTH_CACHE: 'off', MULTIAUTH_CACHE_KEY: randomBytes(32).toString('base64') });

interface StoredRecord {
  name: string;
  text: string;
}

type Opened = { user: string; passkey?: { id?: string; privateKey?: string; signCount?: number } };

/** The `.json` records of a cache folder as they were when read. */
function storedRecords(authDir: string): StoredRecord[] {
  return readdirSync(authDir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => ({ name, text: readFileSync(join(authDir, name), 'utf8') }));
}

/** `stored` records opened with the run's MULTIAUTH_CACHE_KEY. */
function openRecords(stored: StoredRecord[], env: Record<string, string>): Opened[] {
  const sealer = sealerFromEnv(env);
  return stored.flatMap(({ name, text: stored }) => {
    const text = sealer?.open((JSON.parse(stored) as { sealed?: string }).sealed, name);
    return text === undefined ? [] : [JSON.parse(text) as Opened];
  });
}

/** {@link openRecords}, after asserting that each record is sealed and holds none of `privateKeys`. */
function openedRecords(stored: StoredRecord[], env: Record<string, string>, privateKeys: string[]): Opened[] {
  for (const { text } of stored) {
    expect(text).toContain('"sealed":"mas1.');
    for (const key of privateKeys) expect(text).not.toContain(key);
  }
  return openRecords(stored, env);
}

/** Everything a run printed or wrote but its configs and stores, traces unpacked: read right after it, before the next run replaces it. */
function runOutputs(result: InlineResult, dir: string): OutputFile[] {
  return [{ name: 'output', text: result.output }, ...outputFiles(dir, ['file/multiauth.yaml', 'file/.auth', 'redis/multiauth.yaml', 'redis/.auth'])];
}

/** Asserts that no private key of `keys` is in a run's `outputs`, which hold a trace of `project`. */
function expectNoLeak(outputs: OutputFile[], project: 'file' | 'redis', keys: string[]): void {
  expect(outputs.some((file) => file.name.includes('trace.zip#zip') && file.name.includes(`-${project}/`)), project).toBe(true);
  expect(findLeaks(outputs, keys)).toEqual([]);
}

/** What a run did and left, read right after it (the next run changes the servers and the stores). */
interface Round {
  result: InlineResult;
  outputs: OutputFile[];
  projects: Record<string, ProjectResult>;
  /** The passkey counters the relying parties hold. */
  counters: { alice?: number; bob?: number };
  endpoints: { file: Record<string, number>; redis: Record<string, number> };
  /** The file store's records, and the relying party's counter of the passkey dave registered (by the id his record holds). */
  fileStore: StoredRecord[];
  daveServerCounter?: number;
  /** The names in the Redis project's cache folder. */
  redisAuthNames: string[];
}

const keys = { alice: testPasskey(), carol: testPasskey(), bob: testPasskey() };
const env = {} as Record<string, string>;
const rounds: Round[] = [];
let dir = '';
let demos: { file: DemoServer; redis: DemoServer } | undefined;
let redis: RedisServer | undefined;

test.beforeAll(async () => {
  // Two child runs, one after the other: a hook's timeout is the config's unless set here.
  test.setTimeout(600_000);
  demos = { file: await startDemoServer(), redis: await startDemoServer() };
  redis = await startRedis();
  await enrolPasskey(demos.file.url, 'alice', keys.alice);
  await enrolPasskey(demos.file.url, 'carol', keys.carol);
  await enrolPasskey(demos.redis.url, 'bob', keys.bob);
  dir = runDir();
  Object.assign(env, freshSignIns({ DEMO_URL: demos.file.url }), {
    BOB_DEMO_URL: demos.redis.url,
    BOB_STORE: redis.url,
    ALICE_PASSKEY: keys.alice.privateKey,
    CAROL_PASSKEY: keys.carol.privateKey,
    BOB_PASSKEY: keys.bob.privateKey,
    DAVE_PASSWORD: 'dave-password',
  });
  for (let round = 1; round <= 2; round++) {
    const files = {
      'playwright.config.ts': PLAYWRIGHT_CONFIG,
      'file/multiauth.yaml': fileConfig(keys),
      'file/file.spec.ts': fileSpec(round === 1),
      'redis/multiauth.yaml': redisConfig(keys.bob, demos.redis.url),
      'redis/redis.spec.ts': redisSpec,
    };
    const result = await runInlineProject(files, { env, dir });
    const fileStore = storedRecords(join(dir, 'file', '.auth'));
    const dave = openRecords(fileStore, env).find((session) => session.user === 'dave' && session.passkey?.privateKey)?.passkey;
    rounds.push({
      result,
      outputs: runOutputs(result, dir),
      projects: projectResults(result),
      counters: { alice: await serverCounter(demos.file.url, 'alice', keys.alice.id), bob: await serverCounter(demos.redis.url, 'bob', keys.bob.id) },
      endpoints: { file: demos.file.counters.endpoints, redis: demos.redis.counters.endpoints },
      fileStore,
      ...(dave?.id ? { daveServerCounter: await serverCounter(demos.file.url, 'dave', dave.id) } : {}),
      redisAuthNames: readdirSync(join(dir, 'redis', '.auth'), { withFileTypes: true }).map((entry) => entry.name),
    });
  }
});

test.afterAll(async () => {
  await Promise.all([demos?.file.stop(), demos?.redis.stop(), redis?.stop()]);
});

test('file store, two runs with traces on: alice continues her counter; dave registers once, then signs in with no password; carol\'s wrong rp_id fails; no private key anywhere, the store sealed', () => {
  let daveKey = '';
  for (const [i, { result, outputs, projects, counters, endpoints, fileStore, daveServerCounter }] of rounds.entries()) {
    const round = i + 1;
    expect(projects.file?.passed, result.output).toBe(2);
    expect(projects.file?.failed, result.output).toBe(round === 1 ? 1 : 0);
    if (round === 1) expect(result.output).toContain('the passkey of user "carol" is for rp_id "elsewhere.test"');
    // Two assertions a round (the sign-in, the test page), continued from the file store.
    expect(counters.alice).toBe(2 * round);
    // The password was posted once, by the run that registered dave's passkey; carol's page found no credential.
    expect(endpoints.file['POST /login']).toBe(1);
    expect(endpoints.file['POST /passkeys/register/verify']).toBe(1);
    expect(endpoints.file['POST /passkeys/authenticate/verify']).toBe(2 * round + (round - 1));

    // The file store is sealed; dave's registered key is kept in it, alice's seeded one is not.
    const opened = openedRecords(fileStore, env, [keys.alice.privateKey]);
    expect(opened.length).toBeGreaterThan(0);
    const dave = opened.find((session) => session.user === 'dave' && session.passkey?.privateKey)?.passkey;
    const kept = dave?.privateKey ?? '';
    expect(kept, 'dave\'s registered passkey is kept, sealed').toMatch(/^[A-Za-z0-9_-]{100,}$/);
    if (round === 1) daveKey = kept;
    expect(kept, 'the same passkey every round').toBe(daveKey);
    // What a third run would sign in with: the counter the relying party saw last, kept after a
    // sign-in with the registered passkey as after its registration.
    expect(dave?.signCount).toBe(daveServerCounter);
    if (round === 2) expect(dave?.signCount).toBeGreaterThan(0);
    expect(opened.filter((session) => session.user === 'alice').every((session) => session.passkey?.privateKey === undefined)).toBe(true);

    expectNoLeak(outputs, 'file', [keys.alice.privateKey, keys.carol.privateKey, daveKey, keys.bob.privateKey]);
  }
  expect(rounds).toHaveLength(2);
});

test('Redis store, two runs with traces on: bob continues his counter from Redis alone; no private key in any output or in Redis', async () => {
  for (const [i, { result, outputs, projects, counters, endpoints, redisAuthNames }] of rounds.entries()) {
    const round = i + 1;
    expect(projects.redis?.passed, result.output).toBe(1);
    expect(projects.redis?.failed, result.output).toBe(0);
    expect(counters.bob).toBe(2 * round);
    expect(endpoints.redis['POST /login'] ?? 0).toBe(0);
    expect(endpoints.redis['POST /passkeys/authenticate/verify']).toBe(2 * round);
    // Bob's records are in Redis only: his counter did not come from the folder.
    expect(redisAuthNames.filter((name) => name.startsWith('bob-'))).toEqual([]);
    expectNoLeak(outputs, 'redis', [keys.bob.privateKey]);
  }
  expect(rounds).toHaveLength(2);

  const client = createClient({ url: redis!.url });
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
});
