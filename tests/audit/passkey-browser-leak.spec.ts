import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from '../playwright/support.js';
import { runInlineProject, inlineConfig } from '../support/inline-project.js';
import { enrolPasskey, passkeyLoginProject, testPasskey } from '../support/passkey-keys.js';
import { findLeaks, outputFiles } from './secrets.js';
import { sealerFromEnv } from '../../src/sessions/seal.js';

// Issue 28: passkeys' private keys, planted in the environment (alice's, seeded; carol's, whose
// rp_id is wrong so her sign-in fails) and made by the page (dave's, registered), appear in nothing
// a browser run leaves: its output, JSON report, traces and attachments; the session store holds
// only what it must (sealed with MULTIAUTH_CACHE_KEY).
test.describe.configure({ timeout: 180_000 });

test('a run with traces on, a seeded, a registered and a failing passkey user: no private key in any output; the store is sealed', async ({ demo, demoEnv }) => {
  const alice = testPasskey();
  const carol = testPasskey();
  await enrolPasskey(demo.url, 'alice', alice);
  await enrolPasskey(demo.url, 'carol', carol);
  const passkey = (key: typeof alice, name: string, rpId: string) => `
        passkey: { rp_id: "${rpId}", id: ${key.id}, user_handle: ${key.userHandle}, private_key: "\${${name}}", public_key: ${key.publicKey} }`;
  const yaml = `
presets:
  - type: webdriver
    users:
      - username: alice
        project: ${passkeyLoginProject('${DEMO_URL}')}${passkey(alice, 'ALICE_KEY', '127.0.0.1')}
      - username: carol
        project: ${passkeyLoginProject('${DEMO_URL}')}${passkey(carol, 'CAROL_KEY', 'elsewhere.test')}
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
  const spec = `
import { test, expect } from 'playwright-multiauth';
for (const user of ['alice', 'carol', 'dave']) {
  test.describe(user, () => {
    test.use({ authUser: user });
    test('signed in, and the page signs in with the passkey', async ({ page }) => {
      await page.goto('/passkeys/login');
      await page.click('#passkey-sign-in');
      await expect(page.locator('#status')).toHaveAttribute('data-signed-in', user);
    });
  });
}
`;
  const env = { ...demoEnv, ALICE_KEY: alice.privateKey, CAROL_KEY: carol.privateKey, MULTIAUTH_CACHE_KEY: randomBytes(32).toString('base64') };
  const result = await runInlineProject(
    { 'multiauth.yaml': yaml, 'leak.spec.ts': spec, 'playwright.config.ts': inlineConfig().replace("use: {", "use: { trace: 'on', screenshot: 'on',") },
    { env, args: ['--workers=1'] },
  );
  expect(result.passed, result.output).toBe(2);
  expect(result.failed).toBe(1);
  expect(result.output).toContain('the passkey of user "carol" is for rp_id "elsewhere.test"');

  // Dave's key was made in the page; the store keeps it, sealed: it opens with the run's key only.
  const authDir = join(result.dir, '.auth');
  const names = readdirSync(authDir).filter((name) => name.endsWith('.json'));
  const stored = names.map((name) => readFileSync(join(authDir, name), 'utf8'));
  expect(stored.length).toBeGreaterThan(0);
  for (const text of stored) expect(text).toContain('"sealed":"mas1.');
  const sealer = sealerFromEnv(env);
  const opened = names.flatMap((name, i) => {
    const text = sealer?.open((JSON.parse(stored[i] as string) as { sealed?: string }).sealed, name);
    return text === undefined ? [] : [JSON.parse(text) as { user: string; passkey?: { privateKey?: string } }];
  });
  const daveKey = opened.find((session) => session.user === 'dave' && session.passkey?.privateKey)?.passkey?.privateKey;
  expect(daveKey, 'dave\'s registered passkey is kept, sealed').toMatch(/^[A-Za-z0-9_-]{100,}$/);
  // Alice's seeded key stays in the config: the store has her counter only.
  expect(opened.filter((session) => session.user === 'alice').every((session) => session.passkey?.privateKey === undefined)).toBe(true);

  const outputs = [{ name: 'output', text: result.output }, ...outputFiles(result.dir, ['multiauth.yaml', '.auth'])];
  expect(outputs.some((file) => file.name.includes('trace.zip#zip'))).toBe(true);
  expect(findLeaks(outputs, [alice.privateKey, carol.privateKey, daveKey as string])).toEqual([]);
});
