import { Redactor } from '../../src/core/redactor.js';
import { authenticate } from '../../src/runtime/index.js';
import type { Plan } from '../../src/compile/plan.js';
import { planFromYaml } from '../support/plan.js';
import { MultiAuthError } from '../../src/core/errors.js';
import { whoami } from '../support/whoami.js';
import { enrolPasskey, passkeyLoginProject, serverCounter, testPasskey, type TestPasskey } from '../support/passkey-keys.js';
import { expect, test } from './support.js';
import type { Browser } from '@playwright/test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { WorkerAuth } from '../../src/playwright/worker-auth.js';
import { main, type CliIo } from '../../src/cli/main.js';
import { removeTempDirs, writeFiles } from '../support/temp-files.js';

// Issue 28: passkey users signed in in the browser against the demo's relying party
// (@simplewebauthn/server, strict counter), in process.

function passkeyYaml(key: TestPasskey, rpId = '127.0.0.1', signCount?: number): string {
  return `{ rp_id: "${rpId}", id: ${key.id}, user_handle: ${key.userHandle}, private_key: "\${KEY_${key.id.replace(/[^A-Za-z0-9]/g, '')}}", public_key: ${key.publicKey}${signCount === undefined ? '' : `, sign_count: ${signCount}`} }`;
}

function planOf(demoUrl: string, users: Array<{ name: string; key: TestPasskey; typed?: string; rpId?: string; signCount?: number; waitMs?: number }>, env: Record<string, string> = {}): Plan {
  const yaml = `
presets:
  - type: webdriver
    users:
${users.map((u) => `      - username: ${u.name}
        project: ${passkeyLoginProject(demoUrl, u.typed, u.waitMs)}
        passkey: ${passkeyYaml(u.key, u.rpId, u.signCount)}`).join('\n')}
`;
  return planFromYaml(yaml, { ...Object.fromEntries(users.map((u) => [`KEY_${u.key.id.replace(/[^A-Za-z0-9]/g, '')}`, u.key.privateKey])), ...env });
}

async function signIn(plan: Plan, user: string, browser: Browser, passkey?: Parameters<typeof authenticate>[2]['passkey']) {
  const redactor = new Redactor();
  return authenticate(plan, user, { redactor, browser, ...(passkey ? { passkey } : {}) });
}

async function failure(signingIn: Promise<unknown>): Promise<MultiAuthError> {
  const error = await signingIn.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(MultiAuthError);
  return error as MultiAuthError;
}

test('seeded passkeys sign in usernameless (alice) and username-first (bob); the counter continues across three sign-ins', async ({ demo, browser }) => {
  demo.clear();
  const alice = testPasskey();
  const bob = testPasskey();
  await enrolPasskey(demo.url, 'alice', alice);
  await enrolPasskey(demo.url, 'bob', bob, 5);
  const plan = planOf(demo.url, [{ name: 'alice', key: alice }, { name: 'bob', key: bob, typed: 'bob', signCount: 5 }]);

  const first = await signIn(plan, 'alice', browser);
  expect(await whoami(demo.url, first)).toMatchObject({ status: 200, user: 'alice' });
  // The first assertion carries sign_count + 1; the seeded key stays out of the session's record.
  expect(await serverCounter(demo.url, 'alice', alice.id)).toBe(1);
  expect(first.passkey).toMatchObject({ id: alice.id, signCount: 1 });

  const { privateKey: _seedKey, ...kept } = first.passkey ?? { privateKey: undefined };
  const second = await signIn(plan, 'alice', browser, kept as NonNullable<typeof first.passkey>);
  const third = await signIn(plan, 'alice', browser, second.passkey);
  expect(await whoami(demo.url, third)).toMatchObject({ status: 200, user: 'alice' });
  expect(await serverCounter(demo.url, 'alice', alice.id)).toBe(3);
  expect(third.passkey?.signCount).toBe(3);

  const bobSession = await signIn(plan, 'bob', browser);
  expect(await whoami(demo.url, bobSession)).toMatchObject({ status: 200, user: 'bob' });
  expect(await serverCounter(demo.url, 'bob', bob.id)).toBe(6);
  expect(demo.counters.endpoints['POST /login']).toBeUndefined();
});

test('a counter the server is ahead of, a wrong rp_id and a key that does not parse: each an AUTH_PASSKEY naming the user, never the key', async ({ demo, browser }) => {
  demo.clear();
  const carol = testPasskey();
  await enrolPasskey(demo.url, 'carol', carol, 9);
  // Sign-ins that must fail need not wait the full 5 s for a page that never signs in; the three
  // wait side by side (each in its own context): only the first reaches the relying party's counter.
  const broken = { ...carol, privateKey: `${carol.privateKey.slice(0, 40)}AAAA` };
  const [refused, wrongRp, badKey] = await Promise.all([
    failure(signIn(planOf(demo.url, [{ name: 'carol', key: carol, waitMs: 2500 }]), 'carol', browser)),
    failure(signIn(planOf(demo.url, [{ name: 'carol', key: carol, rpId: 'app.example.test', signCount: 20, waitMs: 2500 }]), 'carol', browser)),
    failure(signIn(planOf(demo.url, [{ name: 'carol', key: broken, waitMs: 2500 }]), 'carol', browser)),
  ]);
  expect(refused.code).toBe('AUTH_PASSKEY');
  expect(refused.message).toContain('the relying party refused the passkey of user "carol": signature counter 1 (HTTP 401)');
  expect(refused.hint).toContain('sign_count');

  expect(wrongRp.code).toBe('AUTH_PASSKEY');
  expect(wrongRp.message).toContain('the passkey of user "carol" is for rp_id "app.example.test", which none of the sign-in\'s pages (127.0.0.1) may use');

  expect(badKey.code).toBe('AUTH_PASSKEY');
  expect(badKey.message).toContain('the passkey\'s private_key of user "carol" does not parse as a PKCS#8 DER key');
  for (const error of [refused, wrongRp, badKey]) {
    const text = `${error.message}\n${error.details.join('\n')}\n${error.hint ?? ''}`;
    expect(text).not.toContain(carol.privateKey);
    expect(text).not.toContain(broken.privateKey);
  }
});

test.afterAll(removeTempDirs);

/** Every file under `dir` (the cache: sessions, passkey records, marks), as text. */
function filesUnder(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.slice(0, 200).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [readFileSync(path, 'utf8')];
  });
}

const DAVE_REGISTERS = `
presets:
  - type: webdriver
    users:
      - username: dave
        password: dave-password
        passkey: register
        project:
          tests:
            - id: t
              name: register
              commands:
                - { id: c1, command: open, target: "\${DEMO_URL}/login?next=/passkeys/register" }
                - { id: c2, command: type, target: "id=username", value: "dave" }
                - { id: c3, command: type, target: "id=password", value: "{{password}}" }
                - { id: c4, command: click, target: "css=button[type=submit]" }
                - { id: c5, command: click, target: "id=create-passkey" }
                - { id: c6, command: waitForElementPresent, target: "css=#status[data-registered]", value: "5000" }
`;

test('passkey: register with no MULTIAUTH_CACHE_KEY: the cache on fails the sign-in once per run before anything is registered or written, and validate warns; the cache off keeps the passkey in the process', async ({ demo, browser }) => {
  demo.clear();
  const dir = writeFiles({ 'multiauth.yaml': DAVE_REGISTERS });
  const env = { DEMO_URL: demo.url, MULTIAUTH_RUN_ID: `unsealed-${Date.now()}` };

  let stderr = '';
  const io: CliIo = { stdout: { write: () => true }, stderr: { write: (t: string) => (stderr += t) }, env, cwd: dir };
  expect(await main(['validate'], io)).toBe(0);
  expect(stderr).toContain('user "dave" has passkey: register, and MULTIAUTH_CACHE_KEY is not set');
  stderr = '';
  expect(await main(['validate'], { ...io, env: { ...env, MULTIAUTH_CACHE: 'off' } })).toBe(0);
  expect(stderr).toBe('');
  // A session bundle in plaintext (MULTIAUTH_STORE_PLAINTEXT=1) is for session tokens, not a private key.
  stderr = '';
  expect(await main(['login', '--all', '--out', 'bundle'], { ...io, env: { ...env, MULTIAUTH_STORE_PLAINTEXT: '1' } })).not.toBe(0);
  expect(stderr).toContain('user "dave" has passkey: register, and MULTIAUTH_CACHE_KEY is not set');
  for (const text of filesUnder(join(dir, 'bundle'))) expect(text).not.toContain('privateKey');

  const signingIn = new WorkerAuth({ baseDir: dir, env, browser }).session('dave');
  await signingIn.catch(() => undefined);
  // Nothing holds a private key: no session, no passkey record.
  for (const text of filesUnder(join(dir, '.auth'))) expect(text).not.toContain('privateKey');
  const refused = await failure(signingIn);
  expect(refused.code).toBe('AUTH_PASSKEY');
  expect(refused.message).toContain('user "dave" has passkey: register, and MULTIAUTH_CACHE_KEY is not set: the passkey the app registers (its private key) is never cached unsealed');
  expect(refused.hint).toContain('MULTIAUTH_CACHE_KEY');
  expect(refused.hint).toContain('docs/caching.md');
  // Another worker of the run fails at once: the run remembers it.
  const again = await failure(new WorkerAuth({ baseDir: dir, env, browser }).session('dave'));
  expect(again.message).toContain('MULTIAUTH_CACHE_KEY is not set');
  expect(demo.counters.endpoints['POST /login']).toBeUndefined();
  expect(demo.counters.endpoints['POST /passkeys/register/verify']).toBeUndefined();

  // MULTIAUTH_CACHE=off: dave registers and signs in; his passkey is in this process only.
  const offDir = writeFiles({ 'multiauth.yaml': DAVE_REGISTERS });
  const off = new WorkerAuth({ baseDir: offDir, env: { ...env, MULTIAUTH_CACHE: 'off', MULTIAUTH_RUN_ID: `${env.MULTIAUTH_RUN_ID}-off` }, browser });
  const { session } = await off.session('dave');
  expect(await whoami(demo.url, session)).toMatchObject({ status: 200, user: 'dave' });
  const registered = session.passkey?.privateKey;
  expect(registered).toMatch(/^[A-Za-z0-9_-]{100,}$/);
  expect((await off.passkeyFor(session))?.privateKey).toBe(registered);
  for (const text of filesUnder(join(offDir, '.auth'))) {
    expect(text).not.toContain(registered as string);
    expect(text).not.toContain('privateKey');
  }
  await off.close();
});
