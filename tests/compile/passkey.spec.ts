import { test, expect } from '@playwright/test';
import { planSecrets } from '../../src/compile/index.js';
import { formatPath } from '../../src/core/path.js';
import { planFromYaml } from '../support/plan.js';
import { brief, issuesOf } from '../config/helpers.js';

// Shapes only: the key material is checked where Playwright takes it (seeding), not here.
const KEY = 'MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg-private-key-A';

test('a passkey on a generic user, a webdriver user and an oauth_authz_code_browser user reaches the plan; register too', () => {
  const plan = planFromYaml(`
presets:
  - type: webdriver
    users:
      - username: wanda
        project: { tests: [{ id: t, name: t, commands: [{ id: c, command: open, target: "https://app.test/" }] }] }
        passkey: register
  - type: oauth_authz_code_browser
    authorization_url: https://idp.test/authorize
    token_url: https://idp.test/token
    client_id: c
    redirect_uri: https://app.test/cb
    users:
      - username: olga
        password: pw
        passkey:
          rp_id: idp.test
          id: b2xnYQ
          user_handle: dQ
          private_key: "\${OLGA_KEY}"
          public_key: cHVi
          sign_count: \${OLGA_COUNT}
users:
  - name: alice
    passkey: { rp_id: app.test, id: YWxpY2U, user_handle: dTE, private_key: "\${ALICE_KEY}", public_key: cHVi }
`, { ALICE_KEY: KEY, OLGA_KEY: `${KEY}-olga`, OLGA_COUNT: '7' });
  const byName = Object.fromEntries(plan.users.map((user) => [user.name, user.passkey]));
  expect(byName.wanda).toEqual({ kind: 'register', origin: ['presets', 0, 'users', 0, 'passkey'] });
  expect(byName.olga).toMatchObject({ kind: 'seeded', rpId: 'idp.test', id: 'b2xnYQ', userHandle: 'dQ', privateKey: `${KEY}-olga`, signCount: 7 });
  expect(byName.alice).toEqual({
    kind: 'seeded', rpId: 'app.test', id: 'YWxpY2U', userHandle: 'dTE', privateKey: KEY, publicKey: 'cHVi', signCount: 0, origin: ['users', 0, 'passkey'],
  });
  // Private keys are secrets like passwords; ids and public keys are not.
  const secrets = planSecrets(plan);
  expect(secrets).toEqual(expect.arrayContaining([KEY, `${KEY}-olga`]));
  expect(secrets).not.toContain('YWxpY2U');
  expect(secrets).not.toContain('cHVi');
});

test('a passkey that is not base64url, a missing key, an unknown key and a negative counter are located errors', () => {
  const issues = issuesOf(() => planFromYaml(`
users:
  - name: alice
    passkey: { rp_id: app.test, id: "not base64!", user_handle: dQ, private_key: k, public_key: p, sign_count: -1 }
  - name: bob
    passkey: { rp_id: app.test, id: aWQ, user_handle: dQ, public_key: p, counter: 2 }
  - name: carol
    passkey: registered
`));
  const lines = brief(issues).join('\n');
  expect(lines).toContain('users[0].passkey.id: expected the credential id as base64url');
  expect(lines).toContain('users[0].passkey.sign_count: must be at least 0, got -1');
  expect(lines).toContain('users[1].passkey: missing required key "private_key"');
  expect(lines).toContain('users[1].passkey.counter: unknown key "counter"');
  expect(lines).toContain('users[2].passkey: expected "register", got "registered"');
  expect(issues.every((issue) => issue.location !== undefined)).toBe(true);
  expect(formatPath(['users', 0, 'passkey'])).toBe('users[0].passkey');
});
