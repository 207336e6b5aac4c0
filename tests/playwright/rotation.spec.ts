import { test, expect } from '@playwright/test';
import { runInlineProject } from '../support/inline-project.js';
import { startOAuthServer, type OAuthServer } from '../support/servers/oauth.js';
import { startRelay, type Relay } from '../e2e-protocols/support/relay.js';
import { yamlString } from '../e2e-protocols/support/sign-in.js';

test.describe.configure({ timeout: 180_000 });

// Issue 14, item 6: a provider that rotates refresh tokens and refuses one presented twice
// (oidc-provider with rotateRefreshToken). Four workers through three expiries: one sign-in, each
// refresh token presented once, no invalid_grant (which the preset would hide by signing in again).

let server: OAuthServer;
let relay: Relay;
test.beforeAll(async () => {
  server = await startOAuthServer({ accessTokenTtl: 3, rotateRefreshTokens: true });
  relay = await startRelay(server.url);
});
test.afterAll(async () => {
  await relay?.close();
  await server?.stop();
});

test('four workers through three expiries with rotating refresh tokens: one sign-in, no refresh token used twice', async () => {
  const { clientId, clientSecret } = server.clients.post;
  const spec = `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'alice' });
test('through three expiries', async ({ authedRequest }) => {
  for (let i = 0; i < 4; i++) {
    const me = await authedRequest.get('${server.whoamiUrl}');
    expect(me.status()).toBe(200);
    expect((await me.json()).sub).toBe('alice');
    if (i < 3) await new Promise((r) => setTimeout(r, 2600));
  }
});
`;
  const files: Record<string, string> = {
    'multiauth.yaml': `
presets:
  - type: oauth_userpass
    url: ${relay.url}/token
    client_id: ${clientId}
    client_secret: ${yamlString(clientSecret)}
    users: [{ username: alice, password: ${yamlString(server.users.alice as string)}, scopes: [openid, offline_access] }]
`,
  };
  for (const n of [1, 2, 3, 4]) files[`w${n}.spec.ts`] = spec;
  const from = relay.exchanges.length;
  const result = await runInlineProject(files, { env: { MULTIAUTH_CACHE: 'off' }, args: ['--workers=4'] });
  expect(result.passed).toBe(4);

  const exchanges = relay.exchanges.slice(from).filter((e) => e.path === '/token');
  const forms = exchanges.map((e) => new URLSearchParams(e.body));
  const refreshTokens = forms.filter((f) => f.get('grant_type') === 'refresh_token').map((f) => f.get('refresh_token'));
  expect(forms.filter((f) => f.get('grant_type') === 'password')).toHaveLength(1);
  expect(refreshTokens.length).toBeGreaterThanOrEqual(3);
  expect(new Set(refreshTokens).size).toBe(refreshTokens.length);
  // No refusal at all: an invalid_grant would have been hidden by a fresh sign-in, counted above.
  expect(exchanges.filter((e) => e.status !== 200).map((e) => e.status)).toEqual([]);
});
