import { test, expect } from '@playwright/test';
import { runInlineProject } from '../support/inline-project.js';
import { startOAuthServer, type OAuthServer } from '../support/servers/oauth.js';
import { oidcRecordedLogin } from '../e2e-browser/support.js';

test.describe.configure({ timeout: 180_000 });

// Issue 35, item 8: a browser re-sign-in in the middle of a test. Playwright Test gives every
// context a test opens the test's own options, `storageState` among them: the signed-in session's
// cookies, which hold oidc-provider's login session. The re-sign-in's context got them, the
// provider went straight to the callback, and `type name=login` found no field.

let server: OAuthServer;
test.beforeAll(async () => {
  // The same mechanism as 20 s tokens without a refresh token, only sooner.
  server = await startOAuthServer({ authorizationCode: true, accessTokenTtl: 3 });
});
test.afterAll(async () => {
  await server?.stop();
});

test('an authedRequest that outlives its access token signs in again through the provider\'s login form', async () => {
  const { clientId, clientSecret } = server.clients.post;
  const redirect = server.redirectUri;
  const config = `
procedures:
  - name: sso
    operations:
${oidcRecordedLogin(`${server.url}/auth?client_id=${clientId}&response_type=code&scope=openid&redirect_uri=${redirect}`)}
      - tech: http
        parameters:
          url: ${server.tokenEndpoint}
          method: POST
          headers: [{ name: Content-Type, values: [application/x-www-form-urlencoded] }]
          body: "grant_type=authorization_code&code={{code}}&redirect_uri=${redirect}&client_id=${clientId}&client_secret=${encodeURIComponent(clientSecret)}"
        extractions:
          - { name: access_token, location: body, key: access_token }
    injections:
      - { location: header, key: Authorization, prefix: Bearer, variable: access_token }
users:
  - name: alice
    procedure: sso
    credentials: { username: alice, password: "\${ALICE_PASSWORD}" }
`;
  const spec = `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'alice' });
test('outlives its token', async ({ authedRequest, storageState }) => {
  test.setTimeout(90_000);
  // The test's own storage holds the provider's session cookie: what must not reach the re-sign-in.
  expect(JSON.stringify(storageState)).toContain('"_session"');
  const first = await authedRequest.get('${server.whoamiUrl}');
  expect(first.status()).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 4000));
  const again = await authedRequest.get('${server.whoamiUrl}');
  expect(again.status()).toBe(200);
  expect((await again.json()).sub).toBe('alice');
});
`;
  const result = await runInlineProject(
    { 'multiauth.yaml': config, 'resign.spec.ts': spec },
    { env: { MULTIAUTH_CACHE: 'off', ALICE_PASSWORD: server.users.alice as string }, args: ['--workers=1'] },
  );
  expect(result.output).not.toContain('command 2 (type "name=login")');
  expect(result.passed, result.output).toBe(1);
  const notes = (result.annotations['outlives its token'] ?? []).map((a) => a.description ?? '');
  expect(notes.join('\n')).toMatch(/^alice: signed in again after HTTP 401 from GET /m);
});
