import { test, expect } from '@playwright/test';
import { ConfigInvalidError } from '../../src/core/errors.js';
import { presetProcedureName } from '../../src/compile/index.js';
import { compileYaml } from './compile-helpers.js';

test('aliases: oauth_ropc, cognito_userpass and tech selenium compile as their canonical names', () => {
  const plan = compileYaml(`
presets:
  - type: oauth_ropc
    url: https://x.test/token
    client_id: app
    client_secret: s
    users: [{ username: alice, password: pw }]
  - type: cognito_userpass
    region: us-east-1
    client_id: c
    client_secret: s
    users: [{ username: bob, password: pw }]
procedures:
  - name: sso
    operations:
      - tech: selenium
        parameters:
          options: { wait_for_seconds: 3, proxy: "http://proxy.test:3128" }
          project: { tests: [{ id: t, name: t, commands: [{ id: c, command: open, target: "https://x.test" }] }] }
users:
  - { name: carol, procedure: sso }
`);
  expect(plan.users.map((u) => u.source)).toEqual([
    { kind: 'preset', type: 'oauth_userpass', index: 0 },
    { kind: 'preset', type: 'pool_userpass', index: 1 },
    { kind: 'user' },
  ]);
  expect(Object.keys(plan.procedures)).toEqual([
    'sso',
    'preset[0]:oauth_userpass:alice',
    'preset[0]:oauth_userpass-refresh:alice',
    'preset[1]:pool_userpass:bob',
    'preset[1]:pool_userpass-refresh:bob',
  ]);
  expect(plan.procedures['preset[1]:pool_userpass:bob']!.operations[0]).toMatchObject({ dialect: 'cognito' });
  expect(plan.procedures.sso!.operations).toEqual([
    {
      tech: 'browser',
      origin: ['procedures', 0, 'operations', 0, 'parameters'],
      project: { tests: [{ id: 't', name: 't', commands: [{ id: 'c', command: 'open', target: 'https://x.test' }] }] },
      waitForSeconds: 3,
      proxy: 'http://proxy.test:3128',
      extractions: [],
    },
  ]);
});

test('generic procedures: values string -> list, query_parameters -> query, transport options, digest', () => {
  const plan = compileYaml(`
procedures:
  - name: login
    operations:
      - tech: http
        parameters:
          url: https://x.test/login
          method: POST
          headers: [{ name: Accept, values: application/json }, { name: X-Multi, values: [a, b] }]
          cookies: [{ name: c, values: v }]
          query_parameters: [{ name: q, values: "1" }]
          body: "a=1"
          proxy: http://proxy.test:3128
          timeout: 5
          insecure: true
          follow_redirects: 0
        extractions: [{ name: t, location: header, key: X-Token, regex: "(.+)" }]
      - tech: digest
        parameters:
          first_request: { url: https://x.test/digest, method: GET, queryParameters: [{ name: a, values: b }] }
          second_request: { url: https://x.test/digest/2 }
    injections: [{ location: query, key: token }]
`);
  const [http, digest] = plan.procedures.login!.operations;
  expect(http).toEqual({
    tech: 'http',
    origin: ['procedures', 0, 'operations', 0],
    request: {
      url: 'https://x.test/login',
      method: 'POST',
      headers: [{ name: 'Accept', values: ['application/json'] }, { name: 'X-Multi', values: ['a', 'b'] }],
      cookies: [{ name: 'c', values: ['v'] }],
      query: [{ name: 'q', values: ['1'] }],
      body: 'a=1',
      proxy: 'http://proxy.test:3128',
      timeout: 5,
      insecure: true,
      followRedirects: 0,
    },
    extractions: [{ name: 't', location: 'header', key: 'X-Token', regex: '(.+)', origin: ['procedures', 0, 'operations', 0, 'extractions', 0] }],
  });
  expect(digest).toEqual({
    tech: 'digest',
    origin: ['procedures', 0, 'operations', 1],
    first: { url: 'https://x.test/digest', method: 'GET', headers: [], cookies: [], query: [{ name: 'a', values: ['b'] }] },
    second: { url: 'https://x.test/digest/2' },
    extractions: [],
  });
  expect(plan.procedures.login!.injections).toEqual([{ location: 'query', key: 'token', origin: ['procedures', 0, 'injections', 0] }]);
});

test('generic users: credentials normalised, Basic only with both username and password and no procedure, variables, refresh, mtls', () => {
  const plan = compileYaml(`
procedures:
  - name: login
    operations: [{ tech: http, parameters: { url: "https://x.test", method: GET } }]
users:
  - name: alice
    procedure: login
    credentials:
      username: alice
      password: pw
      headers: [{ name: X-A, values: a }]
      queryParameters: [{ name: k, values: [v1, v2] }]
      body: { tenant: acme }
    variables: [{ name: tenant, value: acme }]
    refresh:
      sessionSeconds: 60
      keep: true
      credentials: { username: alice-refresh }
      variables: { mode: refresh }
    repeater_mtls: true
  - name: bob
    credentials: { username: bob, query_parameters: [{ name: q, values: x }] }
  - name: carol
    credentials: { username: carol, password: pw }
`);
  const [alice, bob, carol] = plan.users;
  // carol's authentication is Basic; alice's procedure signs her in, so her password is a template value only.
  expect(carol!.credentials.basic).toBe('requests');
  expect(alice).toEqual({
    name: 'alice',
    origin: ['users', 0],
    source: { kind: 'user' },
    procedure: 'login',
    credentials: {
      username: 'alice',
      password: 'pw',
      basic: 'none',
      headers: [{ name: 'X-A', values: ['a'] }],
      cookies: [],
      query: [{ name: 'k', values: ['v1', 'v2'] }],
      body: { tenant: 'acme' },
    },
    variables: { tenant: 'acme' },
    refresh: {
      procedure: 'login',
      sessionSeconds: 60,
      keep: true,
      credentials: { username: 'alice-refresh', basic: 'none', headers: [], cookies: [], query: [] },
      variables: { mode: 'refresh' },
    },
    mtls: true,
  });
  // Refresh defaults are resolved here, once: alice's refresh runs her own procedure.
  expect(bob).toEqual({
    name: 'bob',
    origin: ['users', 1],
    source: { kind: 'user' },
    credentials: { username: 'bob', basic: 'none', headers: [], cookies: [], query: [{ name: 'q', values: ['x'] }] },
    variables: {},
    mtls: false,
  });
});

test('refresh defaults are resolved at compile time: what refresh leaves out is the user\'s own', () => {
  const plan = compileYaml(`
procedures:
  - name: login
    operations: [{ tech: http, parameters: { url: "https://x.test", method: GET } }]
  - name: renew
    operations: [{ tech: http, parameters: { url: "https://x.test/renew", method: GET } }]
users:
  - name: carol
    procedure: login
    credentials: { username: carol, password: pw }
    variables: { tenant: acme }
    refresh: { keep: false }
  - name: dave
    procedure: login
    refresh: { keep: true, procedure: renew }
  - name: erin
    credentials: { username: erin, password: pw }
    refresh: { keep: false }
`);
  const [carol, dave, erin] = plan.users;
  expect(carol!.refresh).toEqual({ procedure: 'login', keep: false, credentials: carol!.credentials, variables: { tenant: 'acme' } });
  // Shared, not copied: the plan says "the user's own", and answersDigest's Basic switch reaches both.
  expect(carol!.refresh!.credentials).toBe(carol!.credentials);
  expect(carol!.refresh!.variables).toBe(carol!.variables);
  expect(dave!.refresh).toMatchObject({ procedure: 'renew', keep: true });
  // No procedure anywhere: a refresh makes the session from the credentials again.
  expect(erin!.refresh).not.toHaveProperty('procedure');
  expect(erin!.refresh!.credentials).toBe(erin!.credentials);
});

test('plan-level settings: users in declaration order (presets first), proxy, scope, mtls', () => {
  const plan = compileYaml(`
proxy: http://proxy.test:3128
scope: ["https://app.test"]
mtls: [{ origin: "https://app.test", certPath: c.pem, keyPath: k.pem }]
users: [{ name: zoe, credentials: { username: z, password: p } }]
presets:
  - type: basic
    users: [{ username: yan, password: p }]
  - type: headers
    users: [{ username: xi, headers: { X: y } }]
`);
  expect(plan.users.map((u) => u.name)).toEqual(['yan', 'xi', 'zoe']);
  expect(plan.proxy).toBe('http://proxy.test:3128');
  expect(plan.scope).toEqual(['https://app.test']);
  expect(plan.mtls).toEqual([{ origin: 'https://app.test', certPath: 'c.pem', keyPath: 'k.pem' }]);
  expect(plan).not.toHaveProperty('secrets');
});

test('scopes: a list is joined with spaces, an empty list or blank string sends no scope', () => {
  const plan = compileYaml(`
presets:
  - type: oauth_userpass
    url: https://x.test/token
    client_id: app
    client_secret: s
    users:
      - { username: a, password: p, scopes: [openid, email] }
      - { username: b, password: p, scopes: [] }
      - { username: c, password: p, scopes: "  " }
`);
  const body = (user: string) =>
    (plan.procedures[`preset[0]:oauth_userpass:${user}`]!.operations[0] as { request: { body: Record<string, string> } }).request.body;
  expect(body('a').scope).toBe('openid email');
  expect(body('b')).not.toHaveProperty('scope');
  expect(body('c')).not.toHaveProperty('scope');
});

test('preset procedure names: shared, per user, refresh; a config procedure may not take one', () => {
  const site = { index: 3, type: 'oauth_userpass' as const, origin: ['presets', 3] };
  expect(presetProcedureName({ ...site, type: 'http' })).toBe('preset[3]:http');
  expect(presetProcedureName(site, 'alice')).toBe('preset[3]:oauth_userpass:alice');
  expect(presetProcedureName(site, 'alice', 'refresh')).toBe('preset[3]:oauth_userpass-refresh:alice');

  let error: unknown;
  try {
    compileYaml(`
procedures:
  - name: "preset[0]:http"
    operations: [{ tech: http, parameters: { url: "https://x.test", method: GET } }]
presets:
  - type: http
    request: { url: "https://x.test", method: POST }
    extractions: []
    injections: []
    users: [{ username: alice }]
`);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ConfigInvalidError);
  expect(error).toMatchObject({ code: 'CONFIG_INVALID' });
  const issues = (error as ConfigInvalidError).issues;
  expect(issues).toMatchObject([{ severity: 'error', path: ['procedures', 0, 'name'] }]);
  expect(issues[0]?.message).toContain('preset[0]:http');
});
