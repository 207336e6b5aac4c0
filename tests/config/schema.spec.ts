import { test, expect } from '@playwright/test';
import { stringify } from 'yaml';
import { parseConfig } from '../../src/config/index.js';
import { brief, issuesOf } from './helpers.js';

/**
 * A valid and an invalid case for every object of the format: each case is a whole config built
 * from valid parts with one part changed, and the exact issues it must produce.
 */

type Json = Record<string, unknown>;
const URL = 'https://idp.example.test/token';

const extraction = () => ({ location: 'body', key: 'access_token', name: 'token', regex: '^(.+)$' });
const injection = () => ({ location: 'header', key: 'Authorization', prefix: 'Bearer', variable: 'token' });
const httpOperation = (): Json => ({
  tech: 'http',
  parameters: {
    url: URL, method: 'POST',
    headers: [{ name: 'Content-Type', values: ['application/json'] }],
    cookies: [{ name: 'c', values: 'one' }],
    queryParameters: [{ name: 'q', values: ['1', '2'] }],
    body: { user: '{{username}}' }, proxy: 'http://proxy.test:8080', timeout: 10, insecure: false, follow_redirects: 0,
  },
  extractions: [extraction()],
});
const digestOperation = (): Json => ({
  tech: 'digest',
  parameters: { first_request: { url: URL, method: 'GET' }, second_request: { url: URL, method: 'GET' } },
  extractions: [],
});
const project = (): Json => ({
  url: 'https://app.example.test',
  tests: [{ id: 't1', name: 'sign in', commands: [
    { id: 'c1', command: 'open', target: '/login' },
    { id: 'c2', command: 'type', target: 'id=user', targets: [['id=user', 'id'], ['css=#user', 'css:finder']], value: '{{username}}' },
  ] }],
});
const browserOperation = (): Json => ({
  tech: 'browser',
  parameters: { options: { wait_for_seconds: 5, proxy: 'http://proxy.test' }, project: project() },
  extractions: [{ location: 'cookie', key: 'session', name: 'session' }],
});
const procedure = (): Json => ({ name: 'login', operations: [httpOperation()], injections: [injection()] });
const credentials = (): Json => ({
  username: 'alice', password: 'pw', headers: [{ name: 'X-Team', values: ['a'] }], cookies: [],
  queryParameters: [], body: { tenant: 't' },
});
const user = (): Json => ({
  name: 'alice', procedure: 'login', credentials: credentials(), variables: [{ name: 'tenant', value: 't1' }],
  refresh: { procedure: 'login', sessionSeconds: 600, keep: true, credentials: { username: 'alice' }, variables: { tenant: 't1' } },
  repeater_mtls: true,
});
const baseConfig = (): Json => ({ procedures: [procedure()], users: [user()] });

const presets: Record<string, () => Json> = {
  basic: () => ({ type: 'basic', users: [{ username: 'b1', password: 'pw', headers: { 'X-A': 'a' }, cookies: { c: 'v' } }] }),
  headers: () => ({ type: 'headers', users: [{ username: 'h1', headers: { Authorization: 'Bearer x' } }] }),
  http: () => ({
    type: 'http', users: [{ username: 'p1', password: 'pw', queryParameters: { a: 'b' }, body: { x: 1 } }],
    request: { url: URL, method: 'POST', headers: { 'Content-Type': 'application/json' }, cookies: {}, query_parameters: {}, body: { u: '{{username}}' } },
    extractions: [extraction()], injections: [injection()],
  }),
  digest: () => ({ type: 'digest', users: [{ username: 'd1', password: 'pw' }], first_request: { url: URL, method: 'GET' }, second_request: { method: 'GET' } }),
  graphql: () => ({ type: 'graphql', users: [{ username: 'g1', variables: { login: 'g1', password: 'pw' } }], url: URL, query: 'mutation { login }' }),
  oauth_client_credentials: () => ({
    type: 'oauth_client_credentials', url: URL, client_auth: 'basic',
    users: [{ username: 'svc', client_id: 'id', client_secret: 'secret', scopes: ['read', 'write'] }],
  }),
  oauth_userpass: () => ({ type: 'oauth_userpass', url: URL, client_id: 'id', client_secret: 's', users: [{ username: 'o1', password: 'pw', scopes: 'read' }] }),
  pool_userpass: () => ({ type: 'pool_userpass', region: 'eu-west-1', client_id: 'id', client_secret: 's', users: [{ username: 'c1', password: 'pw' }] }),
  webdriver: () => ({ type: 'webdriver', wait_for_seconds: 3, users: [{ username: 'w1', project: project() }], extractions: [extraction()], injections: [injection()] }),
  curl: () => ({ type: 'curl', users: [{ username: 'k1', curl: `curl -X POST ${URL} -d 'u=k1'` }], extractions: [extraction()], injections: [injection()] }),
  curl_sequence: () => ({
    type: 'curl_sequence', users: [{ username: 's1', variables: { u: 's1' } }],
    requests: [{ curl: `curl ${URL}`, extractions: [extraction()] }, { curl: `curl ${URL}/2` }], injections: [injection()],
  }),
};

function parse(config: Json) {
  return parseConfig(stringify(config), 'multiauth.yaml', { env: {} });
}

function problems(config: Json): string[] {
  return brief(issuesOf(() => parse(config)));
}

/** Applies `change` to a fresh base config. */
function withChange(change: (config: Json & { procedures: Json[]; users: Json[] }) => void): Json {
  const config = baseConfig() as Json & { procedures: Json[]; users: Json[] };
  change(config);
  return config;
}

const op = (config: { procedures: Json[] }) => (config.procedures[0]!.operations as Json[]);
const params = (config: { procedures: Json[] }) => op(config)[0]!.parameters as Json;

test.describe('schema: generic objects', () => {
  test('a full config using every field of User, Procedure and the three operations is valid', () => {
    const config = withChange((c) => {
      c.procedures.push({ name: 'digest', operations: [digestOperation()] }, { name: 'sso', operations: [browserOperation(), { ...browserOperation(), tech: 'selenium' }] });
    });
    const loaded = parse(config);
    expect(loaded.config.users[0]?.refresh?.keep).toBe(true);
    expect(loaded.config.procedures.map((p) => p.operations.map((o) => o.tech))).toEqual([['http'], ['digest'], ['browser', 'selenium']]);
    expect(loaded.config.procedures[1]?.injections).toEqual([]);
  });

  const invalid: Array<[string, (c: Json & { procedures: Json[]; users: Json[] }) => void, string[]]> = [
    ['User: name missing, unknown key', (c) => { delete c.users[0]!.name; c.users[0]!.procedures = 'x'; }, [
      'users[0]: missing required key "name"',
      'users[0].procedures: unknown key "procedures" (did you mean "procedure"?)',
    ]],
    ['User: repeater_mtls not a boolean', (c) => { c.users[0]!.repeater_mtls = 'yes'; }, ['users[0].repeater_mtls: expected boolean, got string']],
    ['UserRefresh: keep is required', (c) => { delete (c.users[0]!.refresh as Json).keep; }, ['users[0].refresh: missing required key "keep"']],
    ['UserRefresh: sessionSeconds must be positive', (c) => { (c.users[0]!.refresh as Json).sessionSeconds = 0; }, ['users[0].refresh.sessionSeconds: must be greater than 0, got 0']],
    ['Credentials: unknown key', (c) => { (c.users[0]!.credentials as Json).user = 'a'; }, ['users[0].credentials.user: unknown key "user" (did you mean "username"?)']],
    ['Credentials: password must be a string', (c) => { (c.users[0]!.credentials as Json).password = 1234; }, ['users[0].credentials.password: expected string, got number']],
    ['NameValues: name is required', (c) => { (c.users[0]!.credentials as Json).headers = [{ values: ['a'] }]; }, ['users[0].credentials.headers[0]: missing required key "name"']],
    ['NameValues: values is a string or a list of strings', (c) => { (c.users[0]!.credentials as Json).cookies = [{ name: 'a', values: [1] }]; }, ['users[0].credentials.cookies[0].values[0]: expected string, got number']],
    ['AuthenticationVariable: value is required', (c) => { c.users[0]!.variables = [{ name: 'a' }]; }, ['users[0].variables[0]: missing required key "value"']],
    ['Variables: a map must hold strings', (c) => { c.users[0]!.variables = { a: 1 }; }, ['users[0].variables.a: expected string, got number']],
    ['Variables: neither a list nor a map', (c) => { c.users[0]!.variables = 'a=b'; }, ['users[0].variables: expected list or object, got string']],
    ['Procedure: operations must not be empty', (c) => { c.procedures[0]!.operations = []; }, ['procedures[0].operations: must not be empty (at least one item is required)']],
    ['Procedure: name must not be empty', (c) => { c.procedures[0]!.name = ''; c.users[0]!.procedure = ''; delete (c.users[0]!.refresh as Json).procedure; }, [
      'procedures[0].name: must not be empty',
      'users[0].procedure: must not be empty',
    ]],
    ['Operation: unknown tech', (c) => { op(c)[0]!.tech = 'htp'; }, ['procedures[0].operations[0].tech: unknown operation tech "htp" (did you mean "http"?)']],
    ['Operation: tech missing', (c) => { delete op(c)[0]!.tech; }, ['procedures[0].operations[0]: missing required key "tech"']],
    ['HTTPOperation: parameters missing', (c) => { delete op(c)[0]!.parameters; }, ['procedures[0].operations[0]: missing required key "parameters"']],
    ['HTTPRequestParameters: url missing, method wrong case', (c) => { delete params(c).url; params(c).method = 'post'; }, [
      'procedures[0].operations[0].parameters: missing required key "url"',
      'procedures[0].operations[0].parameters.method: "post" is not allowed: values are case-sensitive',
    ]],
    ['HTTPRequestParameters: timeout is a whole number', (c) => { params(c).timeout = 2.5; }, ['procedures[0].operations[0].parameters.timeout: expected whole number, got 2.5']],
    ['HTTPRequestParameters: follow_redirects is not negative', (c) => { params(c).follow_redirects = -1; }, ['procedures[0].operations[0].parameters.follow_redirects: must be at least 0, got -1']],
    ['HTTPRequestParameters: headers is a list', (c) => { params(c).headers = { 'Content-Type': 'x' }; }, ['procedures[0].operations[0].parameters.headers: expected list, got object']],
    ['TokenExtraction: unknown location', (c) => { (op(c)[0]!.extractions as Json[])[0]!.location = 'headers'; }, ['procedures[0].operations[0].extractions[0].location: "headers" is not one of header, cookie, body, query, browser_local_storage, browser_session_storage, link (did you mean "header"?)']],
    ['TokenExtraction: name is required', (c) => { delete (op(c)[0]!.extractions as Json[])[0]!.name; }, ['procedures[0].operations[0].extractions[0]: missing required key "name"']],
    ['TokenInjection: key must not be empty', (c) => { (c.procedures[0]!.injections as Json[])[0]!.key = ''; }, ['procedures[0].injections[0].key: must not be empty']],
    ['TokenInjection: unknown key', (c) => { (c.procedures[0]!.injections as Json[])[0]!.var = 'x'; }, ['procedures[0].injections[0].var: unknown key "var" (did you mean "variable"?)']],
    ['DigestOperation: first_request is required', (c) => { c.procedures[0]!.operations = [{ tech: 'digest', parameters: { second_request: { method: 'GET' } } }]; }, ['procedures[0].operations[0].parameters: missing required key "first_request"']],
    ['DigestSecondRequest: unknown method', (c) => {
      c.procedures[0]!.operations = [{ tech: 'digest', parameters: { first_request: { url: URL, method: 'GET' }, second_request: { method: 'GETT' } } }];
    }, ['procedures[0].operations[0].parameters.second_request.method: "GETT" is not one of CONNECT, DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT, TRACE (did you mean "GET"?)']],
    ['BrowserOperationParameters: options is required', (c) => {
      c.procedures[0]!.operations = [{ tech: 'browser', parameters: { project: project() } }];
    }, ['procedures[0].operations[0].parameters: missing required key "options"']],
    ['BrowserScriptOptions: wait_for_seconds is a whole number', (c) => {
      c.procedures[0]!.operations = [{ tech: 'selenium', parameters: { project: project(), options: { wait_for_seconds: 'ten' } } }];
    }, ['procedures[0].operations[0].parameters.options.wait_for_seconds: expected whole number, got string']],
    ['BrowserProject: tests is required', (c) => {
      c.procedures[0]!.operations = [{ tech: 'browser', parameters: { project: { name: 'p' }, options: {} } }];
    }, ['procedures[0].operations[0].parameters.project: missing required key "tests"']],
    ['BrowserTest and BrowserCommand: required keys', (c) => {
      c.procedures[0]!.operations = [{ tech: 'browser', parameters: { options: {}, project: { tests: [{ id: 't', commands: [{ id: 'c', command: 'open' }] }] } } }];
    }, [
      'procedures[0].operations[0].parameters.project.tests[0]: missing required key "name"',
      'procedures[0].operations[0].parameters.project.tests[0].commands[0]: missing required key "target"',
    ]],
    ['BrowserCommand: targets is a string or Selenium IDE pairs', (c) => {
      c.procedures[0]!.operations = [{ tech: 'browser', parameters: { options: {}, project: { tests: [{ id: 't', name: 'n', commands: [{ id: 'c', command: 'open', target: 'x', targets: 3 }] }] } } }];
    }, ['procedures[0].operations[0].parameters.project.tests[0].commands[0].targets: expected string or list, got number']],
  ];
  for (const [name, change, expected] of invalid) {
    test(`invalid: ${name}`, () => {
      expect(problems(withChange(change))).toEqual(expected);
    });
  }
});

test.describe('schema: presets', () => {
  for (const [type, make] of Object.entries(presets)) {
    test(`valid: ${type}`, () => {
      const loaded = parse({ presets: [make()] });
      expect(loaded.config.presets[0]?.type).toBe(type);
      expect(loaded.config.presets[0]?.users).toHaveLength(1);
    });
  }

  for (const [alias, of] of [['oauth_ropc', 'oauth_userpass'], ['cognito_userpass', 'pool_userpass']] as const) {
    test(`valid: alias ${alias}`, () => {
      const loaded = parse({ presets: [{ ...presets[of]!(), type: alias }] });
      expect(loaded.config.presets[0]?.type).toBe(alias);
    });
  }

  const invalid: Array<[string, Json, string[]]> = [
    ['unknown type', { ...presets.basic!(), type: 'basicauth' }, ['presets[0].type: unknown preset type "basicauth" (did you mean "basic"?)']],
    ['type missing', { users: [] }, ['presets[0]: missing required key "type"']],
    ['basic: password missing', { type: 'basic', users: [{ username: 'b' }] }, ['presets[0].users[0]: missing required key "password"']],
    ['headers: headers required', { type: 'headers', users: [{ username: 'h' }] }, ['presets[0].users[0]: missing required key "headers"']],
    ['http: request and injections required', { type: 'http', users: [{ username: 'p' }], extractions: [] }, [
      'presets[0]: missing required key "request"',
      'presets[0]: missing required key "injections"',
    ]],
    ['http: request headers is a map', { ...presets.http!(), request: { url: URL, method: 'POST', headers: [{ name: 'a', values: ['b'] }] } }, ['presets[0].request.headers: expected object, got list']],
    ['digest: first_request required', { type: 'digest', users: [] }, ['presets[0]: missing required key "first_request"']],
    ['graphql: variables map required', { ...presets.graphql!(), users: [{ username: 'g' }] }, ['presets[0].users[0]: missing required key "variables"']],
    ['graphql: query must not be empty', { ...presets.graphql!(), query: '' }, ['presets[0].query: must not be empty']],
    ['oauth_client_credentials: client_auth', { ...presets.oauth_client_credentials!(), client_auth: 'header' }, ['presets[0].client_auth: "header" is not one of post, basic']],
    ['oauth_userpass: client_id on the preset', { type: 'oauth_userpass', url: URL, client_secret: 's', users: [{ username: 'o', password: 'p', client_id: 'x' }] }, [
      'presets[0]: missing required key "client_id"',
      'presets[0].users[0].client_id: unknown key "client_id"',
    ]],
    ['pool_userpass: region case', { ...presets.pool_userpass!(), region: 'EU-WEST-1' }, ['presets[0].region: "EU-WEST-1" is not allowed: values are case-sensitive']],
    ['pool_userpass: unknown region', { ...presets.pool_userpass!(), region: 'eu-west-9' }, ['presets[0].region: "eu-west-9" is not one of us-east-2, us-east-1, us-west-1, us-west-2, af-south-1, ap-east-1, ap-south-1, ap-northeast-3, ap-northeast-2, ap-southeast-1, ap-southeast-2, ap-northeast-1, ca-central-1, cn-north-1, cn-northwest-1, eu-central-1, eu-west-1, eu-west-2, eu-south-1, eu-west-3, eu-north-1, me-south-1, sa-east-1 (did you mean "eu-west-1"?)']],
    ['webdriver: project required', { type: 'webdriver', users: [{ username: 'w' }] }, ['presets[0].users[0]: missing required key "project"']],
    ['curl: curl must not be empty', { ...presets.curl!(), users: [{ username: 'k', curl: '' }] }, ['presets[0].users[0].curl: must not be empty']],
    ['curl_sequence: requests must not be empty', { ...presets.curl_sequence!(), requests: [] }, ['presets[0].requests: must not be empty (at least one item is required)']],
    ['curl_sequence: variables as a list of {name, value}', { ...presets.curl_sequence!(), users: [{ username: 's', variables: [{ name: 'u' }] }] }, ['presets[0].users[0].variables[0]: missing required key "value"']],
  ];
  for (const [name, preset, expected] of invalid) {
    test(`invalid: ${name}`, () => {
      expect(problems({ presets: [preset] })).toEqual(expected);
    });
  }
});

test.describe('schema: extensions', () => {
  test('valid: $schema, proxy, scope and mtls', () => {
    const loaded = parse({
      $schema: './node_modules/playwright-multiauth/docs/schema.json', proxy: 'http://proxy.test:3128',
      scope: ['https://app.example.test', 'https://*.example.test/**'],
      mtls: [{ origin: 'https://api.example.test', certPath: 'c.pem', keyPath: 'k.pem' }, { origin: 'https://b.test', pfxPath: 'b.pfx', passphrase: 'x' }],
      users: [{ name: 'm', credentials: { username: 'm' }, repeater_mtls: true }],
    });
    expect(loaded.config.scope).toHaveLength(2);
    expect(loaded.config.mtls?.[1]?.pfxPath).toBe('b.pfx');
  });

  test('invalid: mtls origin missing, scope not a list, proxy not a string', () => {
    expect(problems({ proxy: 3128, scope: 'https://app.test', mtls: [{ certPath: 'c.pem', keypath: 'k' }] })).toEqual([
      'proxy: expected string, got number',
      'scope: expected list, got string',
      'mtls[0]: missing required key "origin"',
      'mtls[0].keypath: unknown key "keypath" (did you mean "keyPath"?)',
    ]);
  });

  test('invalid: unknown top-level key suggests the right one', () => {
    expect(problems({ user: [] })).toEqual(['user: unknown key "user" (did you mean "users"?)']);
  });
});
