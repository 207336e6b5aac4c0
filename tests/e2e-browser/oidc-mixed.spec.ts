import { startOAuthServer, type OAuthServer } from '../support/servers/oauth.js';
import { planFromYaml } from '../support/plan.js';
import { expect, oidcRecordedLogin, signIn, test } from './support.js';

// Issue 13, item 3: the docs' mixed procedure (docs/browser.md: a browser gets the code, an http
// step exchanges it) against a real OpenID provider, oidc-provider, with a confidential client. The
// user's password goes into the login form only: were it also sent as HTTP Basic, oidc-provider
// would refuse the token request ("client authentication must only be provided using one mechanism").

let server: OAuthServer;
test.beforeAll(async () => {
  server = await startOAuthServer({ authorizationCode: true });
});
test.afterAll(async () => {
  await server?.stop();
});

/** The docs' mixed procedure, the token request authenticating the client as `auth` says. */
function mixedConfig(auth: 'post' | 'basic'): string {
  const { clientId, clientSecret } = server.clients[auth];
  const redirect = server.redirectUri;
  const body = `grant_type=authorization_code&code={{code}}&redirect_uri=${redirect}`;
  const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64');
  const request =
    auth === 'post'
      ? `headers: [{ name: Content-Type, values: [application/x-www-form-urlencoded] }]
          body: "${body}&client_id=${clientId}&client_secret=${encodeURIComponent(clientSecret)}"`
      : `headers:
            - { name: Content-Type, values: [application/x-www-form-urlencoded] }
            - { name: Authorization, values: ["Basic ${basic}"] }
          body: "${body}"`;
  return `
procedures:
  - name: sso-then-api-token
    operations:
${oidcRecordedLogin(`${server.url}/auth?client_id=${clientId}&response_type=code&scope=openid&redirect_uri=${redirect}`)}
      - tech: http
        parameters:
          url: ${server.tokenEndpoint}
          method: POST
          ${request}
        extractions:
          - { name: access_token, location: body, key: access_token }
    injections:
      - { location: header, key: Authorization, prefix: Bearer, variable: access_token }
users:
  - name: alice
    procedure: sso-then-api-token
    credentials: { username: alice, password: "\${ALICE_PASSWORD}" }
`;
}

for (const auth of ['post', 'basic'] as const) {
  test(`the docs' mixed procedure signs in against oidc-provider with client_secret_${auth}; the password goes to the login form only`, async ({ browser }) => {
    const plan = planFromYaml(mixedConfig(auth), { ALICE_PASSWORD: server.users.alice as string });
    const { session, redactor } = await signIn(plan, 'alice', browser);

    const token = session.variables.access_token ?? '';
    expect(session.headers).toEqual({ Authorization: [`Bearer ${token}`] });
    const me = await fetch(server.whoamiUrl, { headers: { authorization: `Bearer ${token}` } });
    expect(await me.json()).toEqual({ client_id: server.clients[auth].clientId, sub: 'alice', scope: 'openid', kind: 'AccessToken' });
    // The code and the token are secrets of the run; nothing of the config is kept in the result.
    for (const secret of [session.variables.code ?? '', token]) expect(redactor.redact(`x ${secret} y`)).toBe('x ******** y');
    expect(JSON.stringify(session.variables)).not.toContain(server.users.alice as string);
  });
}

test('a second sign-in (as after an expiry) starts in a fresh browser context: the provider shows its login form again', async ({ browser }) => {
  // oidc-provider keeps a login session in a cookie: were the first sign-in's context (or its
  // cookies) reused, the provider would skip its login form and command c2 would find no field.
  const plan = planFromYaml(mixedConfig('post'), { ALICE_PASSWORD: server.users.alice as string });
  const first = await signIn(plan, 'alice', browser);
  const second = await signIn(plan, 'alice', browser);
  const tokens = [first, second].map(({ session }) => session.variables.access_token ?? '');
  expect(tokens[0]).not.toBe(tokens[1]);
  for (const token of tokens) {
    const me = await fetch(server.whoamiUrl, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
  }
  expect(browser.contexts()).toEqual([]);
});
