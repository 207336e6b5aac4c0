import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from './support.js';
import { runInlineProject } from '../support/inline-project.js';
import { formLoginProcedure } from '../support/config-texts.js';

// Issue 13, item 2: `.auth/` holds only what a sign-in produced. The config's passwords, static
// credentials, variables and a Basic header built from them are folded in again from the config
// when a cached sign-in is used; users without a procedure get no cache file at all.

test.describe.configure({ timeout: 180_000 });

const TENANT = 'tenant-secret-123';
const PIN = 'pin-secret-456';
const CONFIG = `
presets:
  - type: basic
    users: [{ username: alice, password: alice-password }]
  - type: headers
    users: [{ username: bob, headers: { X-Api-Key: ak-bob-52d0a8b4 } }]
procedures:
${formLoginProcedure('${DEMO_URL}')}users:
  - name: dave
    procedure: form-login
    credentials: { username: dave, password: dave-password, headers: [{ name: X-Tenant, values: ${TENANT} }] }
    variables: [{ name: pin, value: ${PIN} }]
`;

const SPEC = `
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

test('cached sign-ins hold nothing the config holds, users without a procedure get no file, and a cached run is still signed in', async ({ demoEnv }) => {
  const env = { ...demoEnv, MULTIAUTH_CACHE: 'on' };
  const first = await runInlineProject({ 'multiauth.yaml': CONFIG, 'a.spec.ts': SPEC }, { env });
  expect(first.output).toContain('3 passed');

  const authDir = join(first.dir, '.auth');
  const files = readdirSync(authDir).filter((name) => name.endsWith('.json'));
  // Only dave signs in; alice (basic) and bob (headers) are their config.
  expect(files.map((name) => name.replace(/-[0-9a-f]+\.json$/, ''))).toEqual(['dave']);
  const cached = readFileSync(join(authDir, files[0]!), 'utf8');
  // The search finds what is there: the sid the sign-in produced.
  expect(cached).toMatch(/"name":"sid","value":"[^"]{8,}"/);
  for (const name of readdirSync(authDir)) {
    const text = readFileSync(join(authDir, name), 'utf8');
    for (const value of CONFIG_VALUES) expect(text, `${name} holds a config value`).not.toContain(value);
  }

  // The second run starts from the cache: dave's cached sid gets his X-Tenant header back.
  const second = await runInlineProject({ 'multiauth.yaml': CONFIG, 'a.spec.ts': SPEC }, { env, dir: first.dir });
  expect(second.output).toContain('3 passed');
  expect(JSON.stringify(second.annotations)).toMatch(/dave: reused from the session cache/);
});
