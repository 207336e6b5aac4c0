import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../support/root.js';
import { Redactor } from '../../src/core/redactor.js';
import { MultiAuthError } from '../../src/core/errors.js';
import { refreshSignIn, signInUser } from '../../src/runtime/engine/authenticate.js';
import { startOAuthServer, type OAuthServer } from '../support/servers/oauth.js';
import { planFromYaml } from '../support/plan.js';
import { expect, signIn, test } from './support.js';

// Issue 17, item 2: the `oauth_authz_code_browser` preset against a real OpenID provider
// (oidc-provider, whose own login and consent pages are the provider's pages): a public client with
// PKCE required and a redirect URI where nothing listens, a confidential client, the default login
// and recorded steps, the refresh token, and a provider's refusal.

let server: OAuthServer;
test.beforeAll(async () => {
  server = await startOAuthServer({ authorizationCode: true });
});
test.afterAll(async () => {
  await server?.stop();
});

function presetConfig(options: { client: 'public' | 'post' | 'basic'; scopes?: string; user?: string; redirect?: string }): string {
  const client = server.clients[options.client];
  const secret = options.client === 'public' ? '' : `\n    client_secret: "${client.clientSecret}"\n    client_auth: ${options.client}`;
  return `
presets:
  - type: oauth_authz_code_browser
    authorization_url: ${server.url}/auth
    token_url: ${server.tokenEndpoint}
    client_id: ${client.clientId}${secret}
    redirect_uri: ${options.redirect ?? server.nowhereRedirectUri}
    scopes: [${options.scopes ?? 'openid, offline_access, "api:read"'}]
    wait_for_seconds: 10
    users:
      ${options.user ?? '- { username: alice, password: "${ALICE_PASSWORD}" }'}
`;
}

const env = () => ({ ALICE_PASSWORD: server.users.alice as string });

async function whoami(token: string): Promise<unknown> {
  return (await fetch(server.whoamiUrl, { headers: { authorization: `Bearer ${token}` } })).json();
}

test('a public client with PKCE signs in through the default login; the redirect URI need not exist; the refresh token renews', async ({ browser }) => {
  const plan = planFromYaml(presetConfig({ client: 'public' }), env());
  const redactor = new Redactor();
  const signedIn = await signInUser(plan, 'alice', { redactor, browser });
  const token = signedIn.variables.access_token ?? '';
  expect(await whoami(token)).toEqual({ client_id: 'multiauth-public', sub: 'alice', scope: 'openid offline_access api:read', kind: 'AccessToken' });
  expect(signedIn.variables.refresh_token).toBeTruthy();
  for (const secret of [signedIn.variables.authorization_code ?? '', token]) expect(redactor.redact(`x ${secret} y`)).toBe('x ******** y');
  expect(JSON.stringify(signedIn)).not.toContain(server.users.alice as string);
  expect(JSON.stringify(signedIn)).not.toContain('pkce');

  // No browser given: a refresh that fell back to signing in again would fail.
  const refreshed = await refreshSignIn(plan, signedIn, { redactor: new Redactor() });
  expect(refreshed.variables.access_token).not.toBe(token);
  expect(await whoami(refreshed.variables.access_token ?? '')).toMatchObject({ client_id: 'multiauth-public', sub: 'alice' });
  expect(browser.contexts()).toEqual([]);
});

test('a public client without PKCE is refused by the provider, and its error_description is the error', async ({ browser }) => {
  const plan = planFromYaml(presetConfig({ client: 'public' }).replace('wait_for_seconds', 'use_pkce: false\n    wait_for_seconds'), env());
  const error = await signIn(plan, 'alice', browser).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(MultiAuthError);
  expect((error as MultiAuthError).code).toBe('AUTH_PROTOCOL');
  expect((error as Error).message).toMatch(/the provider refused the authorization: invalid_request \(Authorization Server policy requires PKCE to be used for this request\)/);
});

test('prompt=none without a provider session: the provider\'s refusal, not a missing element', async ({ browser }) => {
  const plan = planFromYaml(presetConfig({ client: 'public', scopes: 'openid' }).replace(`${server.url}/auth`, `${server.url}/auth?prompt=none`), env());
  const error = await signIn(plan, 'alice', browser).then(() => undefined, (e: unknown) => e);
  expect((error as MultiAuthError).code).toBe('AUTH_PROTOCOL');
  expect((error as Error).message).toMatch(/the provider refused the authorization: login_required \(.+\)/);
});

for (const client of ['post', 'basic'] as const) {
  test(`a confidential client (client_secret_${client}) with recorded login steps`, async ({ browser }) => {
    const user = `- username: alice
        password: "\${ALICE_PASSWORD}"
        project:
          tests:
            - id: t1
              name: sign in
              commands:
                - { id: c1, command: type, target: "name=login", value: "{{username}}" }
                - { id: c2, command: type, target: "name=password", value: "{{password}}" }
                - { id: c3, command: click, target: "css=button[type=submit]" }
                - { id: c4, command: click, target: "css=button[type=submit]" }`;
    const plan = planFromYaml(presetConfig({ client, user, redirect: server.redirectUri, scopes: 'openid' }), env());
    const { session } = await signIn(plan, 'alice', browser);
    expect(session.headers).toEqual({ Authorization: [`Bearer ${session.variables.access_token}`] });
    expect(await whoami(session.variables.access_token ?? '')).toEqual({ client_id: server.clients[client].clientId, sub: 'alice', scope: 'openid', kind: 'AccessToken' });
  });
}

// examples/presets/oauth_authz_code_browser.yaml against the demo server's identity provider (a
// second origin): the default login, the default login with a TOTP second factor (tina), and
// recorded steps (bob). The client's real callback page is never loaded: the code reaches nobody else.
function demoExample(demo: { url: string; idpUrl: string }): string {
  return readFileSync(join(ROOT, 'examples', 'presets', 'oauth_authz_code_browser.yaml'), 'utf8')
    .replace('https://idp.example.test/realms/demo/protocol/openid-connect/auth', `${demo.idpUrl}/authorize`)
    .replace('https://idp.example.test/realms/demo/protocol/openid-connect/token', `${demo.url}/oauth/token`)
    .replace('http://127.0.0.1:4010', demo.url);
}

for (const user of ['alice', 'tina', 'bob']) {
  test(`the example signs ${user} in through the demo identity provider`, async ({ browser, demo }) => {
    demo.clear();
    const plan = planFromYaml(demoExample(demo));
    const { session } = await signIn(plan, user, browser);
    const me = await fetch(`${demo.url}/whoami`, { headers: { authorization: `Bearer ${session.variables.access_token}` } });
    expect(await me.json()).toMatchObject({ user });
    expect(demo.counters.endpoints['GET /sso/cli/callback']).toBeUndefined();
    expect(demo.counters.endpoints['POST /oauth/token']).toBe(1);
  });
}

test('a wrong password in the default login: one attempt, and the provider\'s own message', async ({ browser, demo }) => {
  demo.clear();
  const plan = planFromYaml(demoExample(demo).replace('password: alice-password', 'password: not-alices'));
  const error = await signIn(plan, 'alice', browser).then(() => undefined, (e: unknown) => e);
  expect((error as MultiAuthError).code).toBe('BROWSER_STEP_FAILED');
  expect((error as Error).message).toBe('default login: the provider showed its password page again after it was filled in; the page says: "Wrong username or password."');
  expect((error as Error).message).not.toContain('not-alices');
  expect(demo.counters.endpoints['POST /authorize']).toBe(1);
});
