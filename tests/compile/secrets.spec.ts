import { test, expect } from '@playwright/test';
import { planIdentifiers, planSecrets, registerPlan, explainPlan } from '../../src/compile/index.js';
import { Redactor } from '../../src/core/redactor.js';
import { compileYaml } from './compile-helpers.js';

test('users: passwords, cookies, secret headers/query/body fields and variables; not identifying values', () => {
  const secrets = planSecrets(
    compileYaml(`
users:
  - name: alice
    credentials:
      username: alice-name
      password: alice-pw
      headers: [{ name: Authorization, values: "Bearer tok-123" }, { name: Accept, values: application/json }, { name: X-Hasura-Role, values: editor }]
      cookies: [{ name: prefs, values: cookie-1 }]
      query_parameters: [{ name: api_key, values: qk-1 }, { name: tenant, values: acme }]
      body: { password: body-pw, tenant: acme-body, nested: { client_secret: body-secret } }
    variables: [{ name: otp, value: otp-1 }, { name: username, value: var-user }, { name: email, value: a@x.test }]
    refresh:
      keep: false
      credentials: { password: refresh-pw }
      variables: { refresh_pin: rpin-1 }
`),
  );
  expect(secrets.sort()).toEqual(['alice-pw', 'body-pw', 'body-secret', 'cookie-1', 'otp-1', 'qk-1', 'refresh-pw', 'rpin-1', 'tok-123'].sort());
});

test('procedures: secret-looking request fields, browser password typing, curl credentials; never templates', () => {
  const secrets = planSecrets(
    compileYaml(`
procedures:
  - name: p
    operations:
      - tech: http
        parameters:
          url: "https://x.test"
          method: POST
          headers: [{ name: X-Api-Key, values: hk-1 }, { name: Content-Type, values: application/json }, { name: Authorization, values: "Bearer {{token}}" }]
          cookies: [{ name: c, values: pc-1 }]
          body: "grant_type=password&password=form-pw&user=u"
      - tech: browser
        parameters:
          options: {}
          project:
            tests:
              - id: t
                name: t
                commands:
                  - { id: a, command: type, target: "id=password", value: typed-pw }
                  - { id: b, command: type, target: "id=username", value: typed-user }
    injections: []
presets:
  - type: curl
    extractions: []
    injections: []
    users:
      - username: c
        curl: >-
          curl -u 'cu:curl-user-pw' -H 'Authorization: Token curl-tok' -d '{"password":"json-pw"}' https://x.test
          -d 'client_secret=form-secret'
mtls: [{ origin: "https://x.test", pfxPath: a.pfx, passphrase: pfx-pass }]
`),
  );
  expect(secrets.sort()).toEqual(['curl-tok', 'curl-user-pw', 'form-pw', 'form-secret', 'hk-1', 'json-pw', 'pc-1', 'pfx-pass', 'typed-pw'].sort());
});

test('what presets derive is secret: client secrets, Basic client credentials, SECRET_HASH', () => {
  const plan = compileYaml(`
presets:
  - type: oauth_userpass
    url: https://x.test/token
    client_id: app
    client_secret: app-secret
    client_auth: basic
    users: [{ username: alice, password: alice-pw }]
  - type: pool_userpass
    region: us-east-1
    client_id: c
    client_secret: pool-secret
    users: [{ username: bob, password: bob-pw }]
`);
  const secrets = planSecrets(plan);
  for (const s of ['app-secret', Buffer.from('app:app-secret').toString('base64'), 'alice-pw', 'pool-secret', 'bob-pw']) expect(secrets).toContain(s);
  expect(secrets.some((s) => /^[A-Za-z0-9+/]{43}=$/.test(s))).toBe(true); // the SECRET_HASH
  expect(secrets).not.toContain('alice');
  expect(secrets).not.toContain('{{password}}');
});

test('cookies pasted with -b / --cookie (Copy as cURL) are masked pair by pair in the command kept for messages and in explain', () => {
  const plan = compileYaml(`
presets:
  - type: curl
    users:
      - username: alice
        curl: "curl 'https://x.test/api/me' -b 'sid=cookie-secret-123; theme=dark-mode' --cookie lang=de-secret -H 'X-Tenant: acme'"
    extractions: [{ name: token, location: body, key: access_token }]
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: token }]
`);
  const text = explainPlan(plan, new Redactor());
  for (const value of ['cookie-secret-123', 'dark-mode', 'de-secret']) expect(text).not.toContain(value);
  expect(text).toContain("-b 'sid=********; theme=********'");
  expect(text).toContain('X-Tenant: acme');
});

test('registerPlan masks the secrets and keeps the names: a user, variable or procedure name is never masked', () => {
  const plan = compileYaml(`
procedures:
  - name: login
    operations:
      - tech: http
        parameters: { url: "https://x.test/login", method: POST, body: { user: "{{username}}", password: "{{password}}" } }
        extractions: [{ name: token, location: body, key: token }]
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: token }]
users:
  - name: alice
    procedure: login
    credentials: { username: alice, password: alice }
    variables: [{ name: pin, value: token }]
`);
  const redactor = registerPlan(new Redactor(), plan);
  expect(redactor.redact('user "alice", procedure "login", unknown variable {{token}}')).toBe('user "alice", procedure "login", unknown variable {{token}}');
  expect(planIdentifiers(plan)).toEqual(expect.arrayContaining(['alice', 'login', 'token', 'pin', 'username', 'password']));
});

test('secret-looking query values written inline in a request URL are secrets, as written and decoded; others and templates are not', () => {
  const secrets = planSecrets(
    compileYaml(`
procedures:
  - name: login
    operations:
      - tech: http
        parameters: { url: "https://app.test/token?client_secret=in%2Fline-1&api_key=inline-2&tenant=acme&code={{code}}#x", method: POST }
    injections: []
users:
  - { name: admin, procedure: login }
`),
  );
  expect(secrets).toEqual(expect.arrayContaining(['in%2Fline-1', 'in/line-1', 'inline-2']));
  expect(secrets).not.toContain('acme');
  expect(secrets.some((secret) => secret.includes('{{'))).toBe(false);
});
