import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { MULTI_CONFIG } from './support.js';
import { runInlineProject, scenarioProjectsConfig, testsByProject, type InlineResult, type ReportedTest } from '../support/inline-project.js';
import { formLoginProcedure } from '../support/config-texts.js';
import { startDemoServer, type DemoServer } from '../../fixtures/demo-server/index.js';
import { CHROMIUM } from '../support/chromium.js';

// What the session cache keeps between runs: issue 16, item 3 (`keys`: editing one user signed
// everybody in again, as the cache key hashed the whole file, and the files of old keys stayed in
// .auth/ forever) and issue 13, item 2 (`atRest`: .auth/ holds only what a sign-in produced).
//
// Both need a first run and a second one that reads its cache: two child runs, each with a
// project per scenario (its own folder, config, .auth/ beside the config and demo server, so
// that the sign-ins each counts are its own). Was cache-keys.spec.ts and at-rest.spec.ts, two
// runs each.

test.describe.configure({ mode: 'default', timeout: 300_000 });

// --- keys -----------------------------------------------------------------------------------
const KEYS_SPEC = `
import { test, expect } from 'playwright-multiauth';
for (const user of ['alice', 'bob', 'dave']) {
  test.describe(() => {
    test.use({ authUser: user });
    test(user, async ({ authedRequest }) => {
      expect((await (await authedRequest.get('/whoami')).json()).user).toBe(user);
    });
  });
}
`;
const keysConfig = (url: string) => MULTI_CONFIG.replaceAll('${DEMO_URL}', url);
// bob gets a header: only bob's session depends on it.
const editedKeysConfig = (url: string) => keysConfig(url).replace('{ username: bob, password: bob-password }', '{ username: bob, password: bob-password, headers: { X-Team: blue } }');

// --- atRest: the config's passwords, static credentials, variables and a Basic header built
// from them are folded in again from the config when a cached sign-in is used; users without a
// procedure get no cache file at all.
const TENANT = 'tenant-secret-123';
const PIN = 'pin-secret-456';
const atRestConfig = (url: string) => `
presets:
  - type: basic
    users: [{ username: alice, password: alice-password }]
  - type: headers
    users: [{ username: bob, headers: { X-Api-Key: ak-bob-52d0a8b4 } }]
procedures:
${formLoginProcedure(url)}users:
  - name: dave
    procedure: form-login
    credentials: { username: dave, password: dave-password, headers: [{ name: X-Tenant, values: ${TENANT} }] }
    variables: [{ name: pin, value: ${PIN} }]
`;
const AT_REST_SPEC = `
import { test, expect } from 'playwright-multiauth';
for (const [user, via] of [['alice', 'basic'], ['bob', 'header'], ['dave', 'cookie']]) {
  test.describe(user, () => {
    test.use({ authUser: user });
    test('signed in, with the config credentials folded in', async ({ authedRequest, authSession }) => {
      const me = await (await authedRequest.get('/whoami')).json();
      expect(me).toMatchObject({ user, via });
      if (user === 'dave') expect(authSession?.headers['X-Tenant']).toEqual(['${TENANT}']);
    });
  });
}
`;
/** What must never be written to disk: every value the config holds, and Basic built from one. */
const CONFIG_VALUES = [
  'alice-password', 'dave-password', 'ak-bob-52d0a8b4', TENANT, PIN,
  Buffer.from('alice:alice-password').toString('base64'), Buffer.from('dave:dave-password').toString('base64'),
];

const NAMES = ['keys', 'atRest'] as const;
const servers = {} as Record<(typeof NAMES)[number], DemoServer>;
let first: InlineResult;
let second: InlineResult;
let firstTests: Record<string, ReportedTest[]>;
let secondTests: Record<string, ReportedTest[]>;
/** The counters of the keys server after the first run (the second run adds to them). */
let keysSignInsAfterFirst: Record<string, number>;
/** The session files of each scenario's .auth/ after the first run. */
const beforeSecond: Record<string, string[]> = {};
const atRestFiles: Record<string, string> = {};

function sessionFiles(dir: string): string[] {
  return readdirSync(dir).filter((name) => /-[0-9a-f]{16}\.json$/.test(name)).sort();
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  for (const name of NAMES) servers[name] = await startDemoServer();
  const use = `launchOptions: { executablePath: process.env.MULTIAUTH_BROWSER_PATH || ${JSON.stringify(CHROMIUM)} }`;
  // Nothing here is about workers: one worker process for each run's projects in turn.
  const options = { env: { MULTIAUTH_CACHE: 'on' }, args: ['--workers=1'] };
  // Given to both runs: a run writes the default config unless it is given one.
  const config = scenarioProjectsConfig(NAMES.map((name) => ({ name, url: servers[name].url })), use);
  first = await runInlineProject({
    'playwright.config.ts': config,
    'keys/multiauth.yaml': keysConfig(servers.keys.url),
    'keys/a.spec.ts': KEYS_SPEC,
    'atRest/multiauth.yaml': atRestConfig(servers.atRest.url),
    'atRest/a.spec.ts': AT_REST_SPEC,
  }, options);
  firstTests = testsByProject(first.report);
  keysSignInsAfterFirst = { ...servers.keys.counters.signIns };
  beforeSecond.keys = sessionFiles(join(first.dir, 'keys', '.auth'));
  for (const name of readdirSync(join(first.dir, 'atRest', '.auth'))) atRestFiles[name] = readFileSync(join(first.dir, 'atRest', '.auth', name), 'utf8');
  // The same folder again, bob's entry edited.
  writeFileSync(join(first.dir, 'keys', 'multiauth.yaml'), editedKeysConfig(servers.keys.url));
  second = await runInlineProject({ 'playwright.config.ts': config }, { ...options, dir: first.dir });
  secondTests = testsByProject(second.report);
});

test.afterAll(async () => {
  await Promise.all(Object.values(servers).map((server) => server.stop()));
});

const annotationsOf = (tests: ReportedTest[] | undefined) => JSON.stringify((tests ?? []).map((t) => t.annotations));
const passedOf = (tests: ReportedTest[] | undefined) => (tests ?? []).filter((t) => t.status === 'expected').length;
const failedOf = (tests: ReportedTest[] | undefined) => (tests ?? []).filter((t) => t.status === 'unexpected').length;

test('editing one user signs only that user in again, and its old session file is removed', () => {
  expect(failedOf(firstTests.keys), first.output).toBe(0);
  expect(passedOf(firstTests.keys), first.output).toBe(3);
  expect(keysSignInsAfterFirst).toEqual({ alice: 1, bob: 1, dave: 1 });
  const before = beforeSecond.keys ?? [];
  expect(before).toHaveLength(3);

  expect(editedKeysConfig('u')).not.toBe(keysConfig('u'));
  expect(failedOf(secondTests.keys), second.output).toBe(0);
  expect(passedOf(secondTests.keys), second.output).toBe(3);
  expect(servers.keys.counters.signIns).toEqual({ alice: 1, bob: 2, dave: 1 });
  const annotations = annotationsOf(secondTests.keys);
  expect(annotations).toContain('alice: reused from the session cache');
  expect(annotations).toContain('dave: reused from the session cache');
  expect(annotations).toContain('bob: signed in');
  const after = sessionFiles(join(first.dir, 'keys', '.auth'));
  expect(after).toHaveLength(3);
  const bobBefore = before.filter((name) => name.startsWith('bob-'));
  const bobAfter = after.filter((name) => name.startsWith('bob-'));
  expect(bobAfter).toHaveLength(1);
  expect(bobAfter).not.toEqual(bobBefore);
  expect(after.filter((name) => !name.startsWith('bob-'))).toEqual(before.filter((name) => !name.startsWith('bob-')));
});

test('cached sign-ins hold nothing the config holds, users without a procedure get no file, and a cached run is still signed in', () => {
  expect(passedOf(firstTests.atRest), first.output).toBe(3);
  expect(failedOf(firstTests.atRest), first.output).toBe(0);

  const files = Object.keys(atRestFiles).filter((name) => name.endsWith('.json'));
  // Only dave signs in; alice (basic) and bob (headers) are their config.
  expect(files.map((name) => name.replace(/-[0-9a-f]+\.json$/, ''))).toEqual(['dave']);
  // The search finds what is there: the sid the sign-in produced.
  expect(atRestFiles[files[0]!]).toMatch(/"name":"sid","value":"[^"]{8,}"/);
  expect(Object.keys(atRestFiles).length).toBeGreaterThan(0);
  for (const [name, text] of Object.entries(atRestFiles)) {
    for (const value of CONFIG_VALUES) expect(text, `${name} holds a config value`).not.toContain(value);
  }

  // The second run starts from the cache: dave's cached sid gets his X-Tenant header back.
  expect(passedOf(secondTests.atRest), second.output).toBe(3);
  expect(failedOf(secondTests.atRest), second.output).toBe(0);
  expect(annotationsOf(secondTests.atRest)).toMatch(/dave: reused from the session cache/);
});
