import { test, expect } from '@playwright/test';
import { cognitoSecretHash } from '../../src/compile/index.js';
import { compileYaml } from './compile-helpers.js';

const TOKEN_EXTRACTIONS = (origin: unknown[], prefix = '', keys = ['access_token', 'refresh_token', 'expires_in']) => [
  { name: 'access_token', location: 'body', key: `${prefix}${keys[0]}`, origin },
  { name: 'refresh_token', location: 'body', key: `${prefix}${keys[1]}`, optional: true, origin },
  { name: 'expires_in', location: 'body', key: `${prefix}${keys[2]}`, optional: true, origin },
];
const BEARER = (origin: unknown[]) => ({ location: 'header', key: 'Authorization', prefix: 'Bearer', variable: 'access_token', origin });

test('basic: username/password credentials sent as Basic, no procedure', () => {
  const plan = compileYaml(`
presets:
  - type: basic
    users:
      - { username: alice, password: pw-a, headers: { X-Tenant: acme }, cookies: { lang: en } }
`);
  expect(plan.procedures).toEqual({});
  expect(plan.users).toEqual([
    {
      name: 'alice',
      origin: ['presets', 0, 'users', 0],
      source: { kind: 'preset', type: 'basic', index: 0 },
      credentials: {
        username: 'alice',
        password: 'pw-a',
        basic: 'requests',
        headers: [{ name: 'X-Tenant', values: ['acme'] }],
        cookies: [{ name: 'lang', values: ['en'] }],
        query: [],
      },
      variables: {},
      mtls: false,
    },
  ]);
});

test('headers: static headers and cookies, no username, no procedure', () => {
  const plan = compileYaml(`
presets:
  - type: headers
    users: [{ username: ci, headers: { X-Api-Key: k-1 }, cookies: { sid: s-1 } }]
`);
  expect(plan.procedures).toEqual({});
  expect(plan.users[0]!.name).toBe('ci');
  expect(plan.users[0]).not.toHaveProperty('procedure');
  expect(plan.users[0]!.credentials).toEqual({
    headers: [{ name: 'X-Api-Key', values: ['k-1'] }],
    cookies: [{ name: 'sid', values: ['s-1'] }],
    query: [],
    basic: 'none',
  });
});

test('http: one shared procedure from the preset request; per-user fields become credentials', () => {
  const plan = compileYaml(`
presets:
  - type: basic
    users: [{ username: zed, password: z }]
  - type: http
    request:
      url: https://x.test/login
      method: POST
      headers: { Content-Type: application/json }
      cookies: { c: v }
      query_parameters: { q: "1" }
      body: { user: "{{username}}", pass: "{{password}}" }
    extractions: [{ name: token, location: body, key: token, regex: "^(.*)$" }]
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: token }]
    users:
      - { username: alice, password: pw-a, queryParameters: { tenant: acme }, body: { extra: 1 }, headers: { X-A: a } }
      - { username: bob }
`);
  expect(Object.keys(plan.procedures)).toEqual(['preset[1]:http']);
  expect(plan.procedures['preset[1]:http']).toEqual({
    name: 'preset[1]:http',
    origin: ['presets', 1],
    fromPreset: 'http',
    operations: [
      {
        tech: 'http',
        origin: ['presets', 1, 'request'],
        request: {
          url: 'https://x.test/login',
          method: 'POST',
          headers: [{ name: 'Content-Type', values: ['application/json'] }],
          cookies: [{ name: 'c', values: ['v'] }],
          query: [{ name: 'q', values: ['1'] }],
          body: { user: '{{username}}', pass: '{{password}}' },
        },
        extractions: [{ name: 'token', location: 'body', key: 'token', regex: '^(.*)$', origin: ['presets', 1, 'extractions', 0] }],
      },
    ],
    injections: [{ location: 'header', key: 'Authorization', prefix: 'Bearer', variable: 'token', origin: ['presets', 1, 'injections', 0] }],
  });
  const [, alice, bob] = plan.users;
  expect(alice).toMatchObject({ name: 'alice', procedure: 'preset[1]:http', origin: ['presets', 1, 'users', 0] });
  expect(alice!.credentials).toEqual({
    username: 'alice',
    password: 'pw-a',
    basic: 'sign-in',
    headers: [{ name: 'X-A', values: ['a'] }],
    cookies: [],
    query: [{ name: 'tenant', values: ['acme'] }],
    body: { extra: 1 },
  });
  // No password: nothing to send as Basic (DESIGN.md: both must be present).
  expect(bob!.credentials).toEqual({ username: 'bob', basic: 'none', headers: [], cookies: [], query: [] });
});

test('digest: one digest operation, second request defaults left to the runtime, no Basic', () => {
  const plan = compileYaml(`
presets:
  - type: digest
    first_request: { url: https://x.test/digest/, method: POST, headers: { Accept: text/html }, body: "a=1" }
    second_request: { method: GET }
    users: [{ username: alice, password: pw-a }]
`);
  expect(plan.procedures['preset[0]:digest']!.operations).toEqual([
    {
      tech: 'digest',
      origin: ['presets', 0, 'first_request'],
      first: {
        url: 'https://x.test/digest/',
        method: 'POST',
        headers: [{ name: 'Accept', values: ['text/html'] }],
        cookies: [],
        query: [],
        body: 'a=1',
      },
      second: { method: 'GET' },
      extractions: [],
    },
  ]);
  expect(plan.procedures['preset[0]:digest']!.injections).toEqual([]);
  expect(plan.users[0]!.credentials).toMatchObject({ username: 'alice', password: 'pw-a', basic: 'none' });
});

test('graphql: POST JSON {query, variables}, default extraction and Bearer injection', () => {
  const plan = compileYaml(`
presets:
  - type: graphql
    url: https://x.test/graphql
    query: "mutation($login: String!, $password: String!) { login(login: $login, password: $password) { accessToken } }"
    users:
      - { username: alice, variables: { login: alice@x.test, password: pw-a }, headers: { X-A: a } }
`);
  const procedure = plan.procedures['preset[0]:graphql:alice']!;
  expect(procedure.operations).toEqual([
    {
      tech: 'http',
      origin: ['presets', 0],
      dialect: 'graphql',
      request: {
        url: 'https://x.test/graphql',
        method: 'POST',
        headers: [
          { name: 'Content-Type', values: ['application/json'] },
          { name: 'Accept', values: ['application/json'] },
        ],
        cookies: [],
        query: [],
        body: {
          query: 'mutation($login: String!, $password: String!) { login(login: $login, password: $password) { accessToken } }',
          variables: { login: '{{login}}', password: '{{password}}' },
        },
      },
      extractions: [{ name: 'token', location: 'body', key: 'data', match: 'first-key-ending-token', origin: ['presets', 0] }],
    },
  ]);
  expect(procedure.injections).toEqual([{ location: 'header', key: 'Authorization', prefix: 'Bearer', variable: 'token', origin: ['presets', 0] }]);
  expect(plan.users[0]).toMatchObject({
    name: 'alice',
    procedure: 'preset[0]:graphql:alice',
    variables: { login: 'alice@x.test', password: 'pw-a' },
    credentials: { headers: [{ name: 'X-A', values: ['a'] }], basic: 'none' },
  });
  expect(plan.users[0]!.credentials.username).toBeUndefined();
});

test('graphql: given extractions replace the default; the default injection then takes the first extraction', () => {
  const plan = compileYaml(`
presets:
  - type: graphql
    url: https://x.test/graphql
    query: "{ me }"
    extractions: [{ name: jwt, location: body, key: data.login.jwt }]
    users: [{ username: alice, variables: {} }]
  - type: graphql
    url: https://x.test/graphql
    query: "{ me }"
    extractions: []
    injections: []
    users: [{ username: bob, variables: {} }]
`);
  const alice = plan.procedures['preset[0]:graphql:alice']!;
  expect(alice.operations[0]!.extractions).toEqual([{ name: 'jwt', location: 'body', key: 'data.login.jwt', origin: ['presets', 0, 'extractions', 0] }]);
  expect(alice.injections).toEqual([{ location: 'header', key: 'Authorization', prefix: 'Bearer', origin: ['presets', 0] }]);
  const bob = plan.procedures['preset[1]:graphql:bob']!;
  expect(bob.operations[0]!.extractions).toEqual([]);
  expect(bob.injections).toEqual([]);
});

test('oauth_client_credentials: form token request with client_secret_post, scope only when given, refresh', () => {
  const plan = compileYaml(`
presets:
  - type: oauth_client_credentials
    url: https://x.test/oauth/token
    users:
      - { username: svc, client_id: svc-id, client_secret: svc-secret, scopes: [read, write] }
      - { username: bare, client_id: bare-id, client_secret: bare-secret }
`);
  const signIn = plan.procedures['preset[0]:oauth_client_credentials:svc']!;
  expect(signIn).toEqual({
    name: 'preset[0]:oauth_client_credentials:svc',
    origin: ['presets', 0],
    fromPreset: 'oauth_client_credentials',
    operations: [
      {
        tech: 'http',
        origin: ['presets', 0],
        dialect: 'oauth',
        request: {
          url: 'https://x.test/oauth/token',
          method: 'POST',
          headers: [
            { name: 'Content-Type', values: ['application/x-www-form-urlencoded'] },
            { name: 'Accept', values: ['application/json'] },
          ],
          cookies: [],
          query: [],
          body: { grant_type: 'client_credentials', scope: 'read write', client_id: 'svc-id', client_secret: 'svc-secret' },
        },
        extractions: TOKEN_EXTRACTIONS(['presets', 0]),
      },
    ],
    injections: [BEARER(['presets', 0])],
  });
  expect(plan.procedures['preset[0]:oauth_client_credentials:bare']!.operations[0]).toMatchObject({
    request: { body: { grant_type: 'client_credentials', client_id: 'bare-id', client_secret: 'bare-secret' } },
  });
  expect((plan.procedures['preset[0]:oauth_client_credentials:bare']!.operations[0] as { request: { body: object } }).request.body).not.toHaveProperty('scope');

  const refresh = plan.procedures['preset[0]:oauth_client_credentials-refresh:svc']!;
  expect(refresh.operations[0]).toMatchObject({
    dialect: 'oauth',
    request: { body: { grant_type: 'refresh_token', refresh_token: '{{refresh_token}}', client_id: 'svc-id', client_secret: 'svc-secret' } },
  });
  expect(plan.users[0]).toMatchObject({
    name: 'svc',
    procedure: 'preset[0]:oauth_client_credentials:svc',
    refresh: { procedure: 'preset[0]:oauth_client_credentials-refresh:svc', keep: true },
    credentials: { basic: 'none' },
  });
  expect(plan.secrets).toEqual(['svc-secret', 'bare-secret']);
});

test('oauth_userpass: password grant, client_secret_basic with form-urlencoded id and secret (RFC 6749 2.3.1)', () => {
  const plan = compileYaml(`
presets:
  - type: oauth_userpass
    url: https://x.test/oauth/token
    client_id: "my app"
    client_secret: "s3:cr+t"
    client_auth: basic
    users: [{ username: alice, password: pw-a, scopes: "openid profile" }]
`);
  const expectedBasic = Buffer.from('my+app:s3%3Acr%2Bt').toString('base64');
  const request = (plan.procedures['preset[0]:oauth_userpass:alice']!.operations[0] as { request: unknown }).request;
  expect(request).toEqual({
    url: 'https://x.test/oauth/token',
    method: 'POST',
    headers: [
      { name: 'Content-Type', values: ['application/x-www-form-urlencoded'] },
      { name: 'Accept', values: ['application/json'] },
      { name: 'Authorization', values: [`Basic ${expectedBasic}`] },
    ],
    cookies: [],
    query: [],
    body: { grant_type: 'password', username: '{{username}}', password: '{{password}}', scope: 'openid profile' },
  });
  expect(plan.users[0]!.credentials).toMatchObject({ username: 'alice', password: 'pw-a', basic: 'none' });
  expect(plan.secrets).toEqual(['s3:cr+t', expectedBasic]);
});

test('oauth_userpass: client_secret_post by default', () => {
  const plan = compileYaml(`
presets:
  - type: oauth_userpass
    url: https://x.test/oauth/token
    client_id: app
    client_secret: app-secret
    users: [{ username: alice, password: pw-a }]
`);
  const op = plan.procedures['preset[0]:oauth_userpass:alice']!.operations[0] as { request: { headers: unknown[]; body: unknown } };
  expect(op.request.body).toEqual({ grant_type: 'password', username: '{{username}}', password: '{{password}}', client_id: 'app', client_secret: 'app-secret' });
  expect(op.request.headers).toHaveLength(2);
});

test('pool_userpass: Cognito InitiateAuth with SECRET_HASH; endpoint override; REFRESH_TOKEN_AUTH refresh', () => {
  const plan = compileYaml(`
presets:
  - type: pool_userpass
    region: eu-west-1
    client_id: client123
    client_secret: secretXYZ
    users: [{ username: alice, password: pw-a, scopes: [ignored] }]
  - type: pool_userpass
    region: us-east-1
    client_id: open
    client_secret: ""
    endpoint: http://127.0.0.1:9229/
    users: [{ username: bob, password: pw-b }]
`);
  const hash = cognitoSecretHash('alice', 'client123', 'secretXYZ');
  expect(hash).toBe('e3/awMsXtu87ExJvFOO4hkzRIRQoMP3U0NPJPsVgJHQ=');
  const signIn = plan.procedures['preset[0]:pool_userpass:alice']!;
  expect(signIn.operations).toEqual([
    {
      tech: 'http',
      origin: ['presets', 0],
      dialect: 'cognito',
      request: {
        url: 'https://cognito-idp.eu-west-1.amazonaws.com/',
        method: 'POST',
        headers: [
          { name: 'X-Amz-Target', values: ['AWSCognitoIdentityProviderService.InitiateAuth'] },
          { name: 'Content-Type', values: ['application/x-amz-json-1.1'] },
        ],
        cookies: [],
        query: [],
        body: {
          AuthFlow: 'USER_PASSWORD_AUTH',
          ClientId: 'client123',
          AuthParameters: { USERNAME: '{{username}}', PASSWORD: '{{password}}', SECRET_HASH: hash },
        },
      },
      extractions: TOKEN_EXTRACTIONS(['presets', 0], 'AuthenticationResult.', ['AccessToken', 'RefreshToken', 'ExpiresIn']),
    },
  ]);
  expect(signIn.injections).toEqual([BEARER(['presets', 0])]);
  expect(plan.procedures['preset[0]:pool_userpass-refresh:alice']!.operations[0]).toMatchObject({
    request: { body: { AuthFlow: 'REFRESH_TOKEN_AUTH', ClientId: 'client123', AuthParameters: { REFRESH_TOKEN: '{{refresh_token}}', SECRET_HASH: hash } } },
  });
  expect(plan.users[0]).toMatchObject({
    procedure: 'preset[0]:pool_userpass:alice',
    refresh: { procedure: 'preset[0]:pool_userpass-refresh:alice', keep: true },
    credentials: { username: 'alice', password: 'pw-a', basic: 'none' },
  });
  const open = plan.procedures['preset[1]:pool_userpass:bob']!.operations[0] as { request: { url: string; body: { AuthParameters: object } } };
  expect(open.request.url).toBe('http://127.0.0.1:9229/');
  expect(open.request.body.AuthParameters).toEqual({ USERNAME: '{{username}}', PASSWORD: '{{password}}' });
  expect(plan.secrets).toEqual(['secretXYZ', hash]);
});

test('webdriver: one browser operation per user with the preset wait and extractions', () => {
  const plan = compileYaml(`
presets:
  - type: webdriver
    wait_for_seconds: 7
    extractions: [{ name: sid, location: cookie, key: sid }]
    injections: [{ location: cookie, key: sid, variable: sid }]
    users:
      - username: alice
        headers: { X-A: a }
        project:
          tests: [{ id: t, name: login, commands: [{ id: c, command: open, target: "https://x.test/login" }] }]
`);
  expect(plan.procedures['preset[0]:webdriver:alice']).toEqual({
    name: 'preset[0]:webdriver:alice',
    origin: ['presets', 0],
    fromPreset: 'webdriver',
    operations: [
      {
        tech: 'browser',
        origin: ['presets', 0, 'users', 0],
        project: { tests: [{ id: 't', name: 'login', commands: [{ id: 'c', command: 'open', target: 'https://x.test/login' }] }] },
        waitForSeconds: 7,
        extractions: [{ name: 'sid', location: 'cookie', key: 'sid', origin: ['presets', 0, 'extractions', 0] }],
      },
    ],
    injections: [{ location: 'cookie', key: 'sid', variable: 'sid', origin: ['presets', 0, 'injections', 0] }],
  });
  expect(plan.users[0]!.credentials.headers).toEqual([{ name: 'X-A', values: ['a'] }]);
});

test('curl: one http operation per user, parsed from its command, which it keeps as its source', () => {
  const plan = compileYaml(`
presets:
  - type: curl
    extractions: [{ name: t, location: header, key: X-Token }]
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: t }]
    users:
      - { username: alice, curl: "curl -d 'u=alice' https://x.test/login" }
      - { username: bob, curl: "curl -d 'u=bob' https://x.test/login", cookies: { c: v } }
`);
  expect(plan.procedures['preset[0]:curl:bob']!.operations).toEqual([
    {
      tech: 'http',
      origin: ['presets', 0, 'users', 1, 'curl'],
      request: {
        url: 'https://x.test/login',
        method: 'POST',
        headers: [{ name: 'Content-Type', values: ['application/x-www-form-urlencoded'] }],
        cookies: [],
        query: [],
        body: 'u=bob',
        followRedirects: 0,
      },
      source: { kind: 'curl', command: "curl -d 'u=bob' https://x.test/login" },
      extractions: [{ name: 't', location: 'header', key: 'X-Token', origin: ['presets', 0, 'extractions', 0] }],
    },
  ]);
  expect(plan.procedures['preset[0]:curl:alice']!.injections).toEqual([
    { location: 'header', key: 'Authorization', prefix: 'Bearer', variable: 't', origin: ['presets', 0, 'injections', 0] },
  ]);
  expect(plan.users.map((u) => u.procedure)).toEqual(['preset[0]:curl:alice', 'preset[0]:curl:bob']);
  expect(plan.users[1]!.credentials.cookies).toEqual([{ name: 'c', values: ['v'] }]);
});

test('curl_sequence: one shared procedure, one http operation per request in order, user variables', () => {
  const plan = compileYaml(`
presets:
  - type: curl_sequence
    requests:
      - curl: "curl https://x.test/csrf"
        extractions: [{ name: csrf, location: cookie, key: csrf }]
      - curl: "curl -d 'u={{user}}&c={{csrf}}' https://x.test/login"
    injections: [{ location: header, key: Authorization, variable: csrf }]
    users:
      - { username: alice, variables: { user: alice } }
      - { username: bob, variables: [{ name: user, value: bob }] }
`);
  expect(plan.procedures['preset[0]:curl_sequence']!.operations).toEqual([
    {
      tech: 'http',
      origin: ['presets', 0, 'requests', 0, 'curl'],
      request: { url: 'https://x.test/csrf', method: 'GET', headers: [], cookies: [], query: [], followRedirects: 0 },
      source: { kind: 'curl', command: 'curl https://x.test/csrf' },
      extractions: [{ name: 'csrf', location: 'cookie', key: 'csrf', origin: ['presets', 0, 'requests', 0, 'extractions', 0] }],
    },
    {
      tech: 'http',
      origin: ['presets', 0, 'requests', 1, 'curl'],
      request: {
        url: 'https://x.test/login',
        method: 'POST',
        headers: [{ name: 'Content-Type', values: ['application/x-www-form-urlencoded'] }],
        cookies: [],
        query: [],
        body: 'u={{user}}&c={{csrf}}',
        followRedirects: 0,
      },
      source: { kind: 'curl', command: "curl -d 'u={{user}}&c={{csrf}}' https://x.test/login" },
      extractions: [],
    },
  ]);
  expect(plan.users.map((u) => [u.name, u.procedure, u.variables])).toEqual([
    ['alice', 'preset[0]:curl_sequence', { user: 'alice' }],
    ['bob', 'preset[0]:curl_sequence', { user: 'bob' }],
  ]);
});

test('a preset user may say how long its session lasts: over the preset\'s refresh rule, or as a rule that signs in again', () => {
  const plan = compileYaml(`
presets:
  - type: http
    request: { url: "https://x.test/login", method: POST, body: { u: "{{username}}", p: "{{password}}" } }
    extractions: [{ name: t, location: body, key: t }]
    injections: [{ location: header, key: Authorization, variable: t }]
    users:
      - { username: ann, password: a, refresh: { sessionSeconds: 600 } }
      - { username: ben, password: b }
  - type: oauth_client_credentials
    url: https://x.test/token
    users: [{ username: svc, client_id: c, client_secret: s, refresh: { sessionSeconds: 300, keep: true } }]
`);
  const [ann, ben, svc] = plan.users;
  expect(ann!.refresh).toMatchObject({ procedure: ann!.procedure, sessionSeconds: 600, keep: false });
  expect(ben!.refresh).toBeUndefined();
  // The preset's own refresh procedure stays; the user's length and keep win.
  expect(svc!.refresh).toMatchObject({ procedure: 'preset[1]:oauth_client_credentials-refresh:svc', sessionSeconds: 300, keep: true });
});
