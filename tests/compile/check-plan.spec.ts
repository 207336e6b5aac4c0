import { test, expect } from '@playwright/test';
import { checkPlan } from '../../src/compile/index.js';
import { compileYaml } from './compile-helpers.js';

const login = (injections: string, extra = '') => `
procedures:
  - name: login
    operations:
      - tech: http
        parameters: { url: "https://x.test/login", method: POST, body: { u: "{{username}}", p: "{{password}}" } }
        extractions: [{ name: access_token, location: body, key: token }]
${extra}
    injections: ${injections}
users:
  - { name: alice, procedure: login, credentials: { username: alice, password: pw } }
`;

test('a valid procedure has no issues', () => {
  expect(checkPlan(compileYaml(login('[{ location: header, key: Authorization, prefix: Bearer, variable: access_token }]')))).toEqual([]);
});

test('an injection of a variable nothing produces is an error at the injection', () => {
  const issues = checkPlan(compileYaml(login('[{ location: header, key: Authorization, variable: acces_token }]')));
  expect(issues).toEqual([
    {
      severity: 'error',
      path: ['procedures', 0, 'injections', 0],
      message: 'injection reads variable "acces_token", which procedure "login" never extracts',
      hint: 'Extracted by the procedure: access_token. Fix the spelling or add an extraction named "acces_token".',
    },
  ]);
});

test('an injection may read a variable every run starts with (a user variable, the password)', () => {
  const issues = checkPlan(compileYaml(login('[{ location: header, key: X-Password, variable: password }]')));
  expect(issues).toEqual([]);
});

test('an injection without variable needs an extraction in the procedure', () => {
  const yaml = `
procedures:
  - name: static
    operations: [{ tech: http, parameters: { url: "https://x.test", method: GET } }]
    injections: [{ location: header, key: Authorization }]
users: [{ name: alice, procedure: static }]
`;
  expect(checkPlan(compileYaml(yaml))).toEqual([
    expect.objectContaining({ severity: 'error', path: ['procedures', 0, 'injections', 0], message: 'injection has no "variable" and procedure "static" extracts nothing' }),
  ]);
  expect(checkPlan(compileYaml(login('[{ location: header, key: Authorization }]')))).toEqual([]);
});

test('a browser store* command counts as producing its variable, for injections and later templates', () => {
  const yaml = `
procedures:
  - name: sso
    operations:
      - tech: browser
        parameters:
          options: {}
          project:
            tests:
              - id: t
                name: t
                commands:
                  - { id: a, command: open, target: "https://x.test" }
                  - { id: b, command: storeText, target: "css=#token", value: token }
                  - { id: c, command: storeTitle, target: title }
                  - { id: d, command: type, target: "id=t", value: "\${token} {{title}}" }
      - tech: http
        parameters: { url: "https://x.test/{{title}}", method: GET }
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: token }]
users: [{ name: alice, procedure: sso }]
`;
  expect(checkPlan(compileYaml(yaml))).toEqual([]);
});

test('a browser command that uses a variable before it is stored gets a warning', () => {
  const yaml = `
procedures:
  - name: sso
    operations:
      - tech: browser
        parameters:
          options: {}
          project:
            tests:
              - id: t
                name: t
                commands:
                  - { id: a, command: type, target: "id=t", value: "\${later}" }
                  - { id: b, command: store, target: "x", value: later }
    injections: []
users: [{ name: alice, procedure: sso }]
`;
  expect(checkPlan(compileYaml(yaml))).toEqual([
    expect.objectContaining({ severity: 'warning', path: ['procedures', 0, 'operations', 0, 'parameters'], message: expect.stringContaining('{{later}} is never defined') }),
  ]);
});

test('a template never defined for any user is a warning at its operation', () => {
  const yaml = `
procedures:
  - name: login
    operations:
      - tech: http
        parameters: { url: "https://x.test/{{tenant}}/{{region}}", method: POST, body: { u: "{{username}}", t: "{{token}}" } }
        extractions: [{ name: token, location: body, key: token }]
      - tech: http
        parameters: { url: "https://x.test/me", method: GET, headers: [{ name: X, values: "{{token}} {{ghost}}" }] }
    injections: []
users:
  - { name: alice, procedure: login, credentials: { username: alice }, variables: [{ name: tenant, value: acme }] }
  - { name: bob, procedure: login, credentials: { username: bob } }
`;
  const issues = checkPlan(compileYaml(yaml));
  // tenant: alice declares it (bob does not: that is a runtime error for bob, not provable here).
  // token in operation 0: extracted by operation 0 itself, so not yet defined when it is sent.
  expect(issues.map((i) => [i.severity, i.path, i.message])).toEqual([
    ['warning', ['procedures', 0, 'operations', 0], '{{region}} is never defined: no user of procedure "login" (alice, bob) declares it and no earlier operation extracts it'],
    ['warning', ['procedures', 0, 'operations', 0], '{{token}} is never defined: no user of procedure "login" (alice, bob) declares it and no earlier operation extracts it'],
    ['warning', ['procedures', 0, 'operations', 1], '{{ghost}} is never defined: no user of procedure "login" (alice, bob) declares it and no earlier operation extracts it'],
  ]);
});

test('username/password count only for users whose credentials have them', () => {
  const yaml = `
procedures:
  - name: login
    operations: [{ tech: http, parameters: { url: "https://x.test", method: POST, body: "p={{password}}" } }]
    injections: []
users: [{ name: alice, procedure: login, credentials: { username: alice } }]
`;
  expect(checkPlan(compileYaml(yaml)).map((i) => i.message)).toEqual([
    '{{password}} is never defined: no user of procedure "login" (alice) declares it and no earlier operation extracts it',
  ]);
});

test('a refresh procedure sees the variables of the sign-in it renews', () => {
  const yaml = `
procedures:
  - name: login
    operations:
      - tech: http
        parameters: { url: "https://x.test/login", method: POST }
        extractions: [{ name: refresh_token, location: body, key: refresh_token }]
    injections: []
  - name: renew
    operations:
      - tech: http
        parameters: { url: "https://x.test/refresh", method: POST, body: { t: "{{refresh_token}}", m: "{{mode}}" } }
        extractions: [{ name: access_token, location: body, key: access_token }]
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: access_token }]
users:
  - { name: alice, procedure: login, refresh: { procedure: renew, keep: false, variables: { mode: refresh } } }
`;
  expect(checkPlan(compileYaml(yaml))).toEqual([]);
});

test('procedures no user runs are not checked for templates, but their injections are', () => {
  const yaml = `
procedures:
  - name: unused
    operations: [{ tech: http, parameters: { url: "https://x.test/{{anything}}", method: GET } }]
    injections: [{ location: header, key: A, variable: nothing }]
`;
  expect(checkPlan(compileYaml(yaml)).map((i) => [i.severity, i.path])).toEqual([['error', ['procedures', 0, 'injections', 0]]]);
});

test('every preset compiles to a plan without issues', () => {
  const yaml = `
presets:
  - type: basic
    users: [{ username: a1, password: p }]
  - type: http
    request: { url: "https://x.test", method: POST, body: { u: "{{username}}", p: "{{password}}" } }
    extractions: [{ name: t, location: body, key: t }]
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: t }]
    users: [{ username: a2, password: p }]
  - type: graphql
    url: "https://x.test/graphql"
    query: "mutation { login }"
    users: [{ username: a3, variables: { login: a3, password: p } }]
  - type: oauth_client_credentials
    url: "https://x.test/token"
    users: [{ username: a4, client_id: c, client_secret: s }]
  - type: oauth_userpass
    url: "https://x.test/token"
    client_id: c
    client_secret: s
    users: [{ username: a5, password: p }]
  - type: pool_userpass
    region: us-east-1
    client_id: c
    client_secret: s
    users: [{ username: a6, password: p }]
  - type: curl_sequence
    requests:
      - { curl: "curl -d 'u={{user}}' https://x.test", extractions: [{ name: t, location: body, key: t }] }
      - { curl: "curl -H 'X: {{t}}' https://x.test/2" }
    injections: [{ location: header, key: Authorization, variable: t }]
    users: [{ username: a7, variables: { user: a7 } }]
`;
  expect(checkPlan(compileYaml(yaml))).toEqual([]);
});

test('a user without passkey that runs a procedure calling webauthn_assertion() is warned about, once per procedure; users with one are not', () => {
  const issues = checkPlan(compileYaml(`
procedures:
  - name: passkey
    operations:
      - tech: http
        parameters: { url: "https://x.test/options", method: POST }
        extractions: [{ name: options, location: body, key: "" }]
      - tech: http
        parameters: { url: "https://x.test/verify", method: POST, body: "{{ webauthn_assertion(options) }}" }
        extractions: [{ name: token, location: body, key: token }]
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: token }]
users:
  - name: alice
    procedure: passkey
    passkey: { rp_id: x.test, id: aWQ, user_handle: dQ, private_key: a2V5, public_key: cHVi }
  - { name: bob, procedure: passkey }
  - name: carol
    procedure: passkey
    refresh: { procedure: passkey, keep: false }
`));
  expect(issues).toEqual([
    {
      severity: 'warning',
      path: ['procedures', 0, 'operations', 1],
      message: 'user "bob" runs procedure "passkey", whose {{ webauthn_assertion() }} signs with the user\'s passkey; bob has none',
      hint: 'Give "bob" a passkey: {rp_id, id, user_handle, private_key, public_key} (multiauth passkey new makes one), see docs/passkeys.md.',
    },
    expect.objectContaining({ message: expect.stringContaining('user "carol" runs procedure "passkey"') }),
  ]);
});
