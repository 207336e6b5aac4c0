import { test, expect } from '@playwright/test';
import { MASK } from '../../src/core/redactor.js';
import type { Session } from '../../src/runtime/session/session.js';
import { startCognito, cognitoCall, type CognitoServer } from '../support/servers/cognito.js';
import { startGraphql, type GraphqlServer } from '../support/servers/graphql.js';
import { startLighttpd, type LighttpdServer } from '../support/servers/lighttpd.js';
import { startOAuthServer, type OAuthServer } from '../support/servers/oauth.js';
import type { CliRun } from '../support/cli.js';
import { runMain } from '../support/cli-in-process.js';
import { callAs, writeTempConfig, yamlString } from './support/sign-in.js';

test.describe.configure({ mode: 'default' });

/**
 * `multiauth login USER -c FILE [...more]` with `config` written to a temp file, in this process
 * (runMain): these tests are about the sign-ins and what login prints; a Node child per login
 * cost about 1.2 CPU-s (the real bin's login is tested in tests/e2e-browser/cli-login.spec.ts).
 */
async function login(config: string, user: string, ...more: string[]): Promise<CliRun> {
  const { file, remove } = writeTempConfig(config);
  try {
    return await runMain(['login', user, '-c', file, ...more]);
  } finally {
    remove();
  }
}

/** Signed in (exit 0, nothing on stderr), as `user`, no secret printed, the Bearer token masked. */
function expectMaskedLogin(run: CliRun, user: string, secrets: string[]): void {
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(new RegExp(`^user: +${user}$`, 'm'));
  for (const secret of secrets) expect(run.stdout).not.toContain(secret);
}

/** The session `login --json --reveal` printed, as the runtime's Session shape for `applySession`. */
function revealedSession(run: CliRun): Session {
  expect(run.code).toBe(0);
  const json = JSON.parse(run.stdout) as Pick<Session, 'user' | 'headers' | 'cookies' | 'query' | 'body' | 'expiresAt'>;
  return { ...json, origins: [], createdAt: Date.now(), variables: {}, origin: 'signed-in' };
}

test.describe('digest (lighttpd)', () => {
  let server: LighttpdServer;
  test.beforeAll(async () => {
    server = await startLighttpd();
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('login signs the digest user in: exit 0, the password nowhere', async () => {
    const password = server.users.alice as string;
    const run = await login(`
presets:
  - type: digest
    first_request: { url: "${server.url}${server.paths.sha256}", method: GET }
    users: [{ username: alice, password: ${yamlString(password)} }]
`, 'alice');
    expectMaskedLogin(run, 'alice', [password]);
    expect(run.stdout).toContain('headers: (none)');
    expect(run.stdout).toContain(`digest:   answers challenges of realm "${server.realm}" as alice`);
  });
});

test.describe('graphql (graphql-yoga)', () => {
  let server: GraphqlServer;
  test.beforeAll(async () => {
    server = await startGraphql();
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('login signs the graphql user in: the token masked, the password nowhere; the revealed session is the user\'s', async () => {
    const password = server.users.bob as string;
    const config = `
presets:
  - type: graphql
    url: ${server.url}
    query: "mutation($u: String!, $p: String!) { login(username: $u, password: $p) { token } }"
    users: [{ username: bob, variables: { u: bob, p: ${yamlString(password)} } }]
`;
    const run = await login(config, 'bob');
    expectMaskedLogin(run, 'bob', [password]);
    expect(run.stdout).toContain(`Authorization: Bearer ${MASK}`);

    const session = revealedSession(await login(config, 'bob', '--json', '--reveal'));
    const me = await callAs(session, { method: 'POST', url: server.url, headers: [['Content-Type', 'application/json']], body: '{"query":"{ me { username } }"}' });
    expect(me.json).toEqual({ data: { me: { username: 'bob' } } });
  });
});

test.describe('oauth_client_credentials and oauth_userpass (oidc-provider)', () => {
  let server: OAuthServer;
  test.beforeAll(async () => {
    server = await startOAuthServer({ accessTokenTtl: 600 });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  const config = () => `
presets:
  - type: oauth_client_credentials
    url: ${server.tokenEndpoint}
    client_auth: basic
    users: [{ username: reporting, client_id: ${server.clients.basic.clientId}, client_secret: ${yamlString(server.clients.basic.clientSecret)}, scopes: [api:read] }]
  - type: oauth_userpass
    url: ${server.tokenEndpoint}
    client_id: ${server.clients.post.clientId}
    client_secret: ${yamlString(server.clients.post.clientSecret)}
    users: [{ username: alice, password: ${yamlString(server.users.alice as string)} }]
`;

  for (const [user, expected] of [
    ['reporting', { client_id: 'multiauth-basic', scope: 'api:read', kind: 'ClientCredentials' }],
    ['alice', { client_id: 'multiauth-post', sub: 'alice', kind: 'AccessToken' }],
  ] as const) {
    test(`login signs ${user} in: the token masked, no secret printed; the revealed session is seen by the server`, async () => {
      const run = await login(config(), user);
      expectMaskedLogin(run, user, [server.clients.basic.clientSecret, server.clients.post.clientSecret, server.users.alice as string]);
      expect(run.stdout).toContain(`Authorization: Bearer ${MASK}`);
      expect(run.stdout).toMatch(/^expires: +\S+ \(in 10 min\)$/m);

      const session = revealedSession(await login(config(), user, '--json', '--reveal'));
      const me = await callAs(session, { method: 'GET', url: server.whoamiUrl, headers: [] });
      expect(me).toMatchObject({ status: 200, json: expected });
    });
  }
});

test.describe('pool_userpass (cognito-local)', () => {
  let cognito: CognitoServer;
  test.beforeAll(async () => {
    cognito = await startCognito();
  });
  test.afterAll(async () => {
    await cognito?.stop();
  });

  test('login signs the Cognito user in: the token masked, no secret printed; the revealed token is the user\'s', async () => {
    const password = cognito.users.alice as string;
    const config = `
presets:
  - type: pool_userpass
    region: eu-west-1
    client_id: ${cognito.client.clientId}
    client_secret: ${yamlString(cognito.client.clientSecret)}
    endpoint: ${cognito.url}/
    users: [{ username: alice, password: ${yamlString(password)} }]
`;
    const run = await login(config, 'alice');
    expectMaskedLogin(run, 'alice', [password, cognito.client.clientSecret]);
    expect(run.stdout).toContain(`Authorization: Bearer ${MASK}`);

    const session = revealedSession(await login(config, 'alice', '--json', '--reveal'));
    const token = session.headers.Authorization?.[0]?.replace(/^Bearer /, '');
    expect(await cognitoCall(cognito.url, 'GetUser', { AccessToken: token })).toMatchObject({ status: 200, json: { Username: 'alice' } });
  });
});
