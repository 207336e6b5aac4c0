import { rmSync } from 'node:fs';
import type { MultiAuthError } from '../../src/core/errors.js';
import { startOAuthServer, type OAuthServer } from '../support/servers/oauth.js';
import { planFromYaml } from '../support/plan.js';
import { expect, oidcRecordedLogin, signIn, test } from './support.js';

// Issue 24, item 4: a provider that requires PKCE answers an authorization request without
// code_challenge by sending the browser to the callback with error=invalid_request; the recorded
// login must end there with the provider's words, not with "no element matches" for its next
// command. And a browser sign-in always starts in a fresh context: the provider's own session
// from an earlier sign-in never skips the recorded steps.

let server: OAuthServer;
test.beforeAll(async () => {
  server = await startOAuthServer({ authorizationCode: true });
});
test.afterAll(async () => {
  await server?.stop();
});

/** A recorded login at oidc-provider's own pages for the public client (PKCE required). */
function recordedConfig(pkce: boolean): string {
  const { clientId } = server.clients.public;
  const challenge = pkce ? '&code_challenge={{pkce_challenge}}&code_challenge_method=S256' : '';
  return `
procedures:
  - name: sso
    operations:
${oidcRecordedLogin(`${server.url}/auth?client_id=${clientId}&response_type=code&scope=openid&redirect_uri=${server.redirectUri}${challenge}`)}
    injections:
      - { location: header, key: X-Code, variable: code }
users:
  - name: alice
    credentials: { username: alice, password: "${server.users.alice}" }
    procedure: sso
`;
}

test('an OAuth error sent to the callback ends the recorded login with the provider\'s error, at once', async ({ browser }) => {
  const started = Date.now();
  const failure = (await signIn(planFromYaml(recordedConfig(false)), 'alice', browser).catch((caught: unknown) => caught)) as MultiAuthError;
  expect(failure.code).toBe('BROWSER_STEP_FAILED');
  // The error arrives with the redirect that `open` starts: the step ends at `open` or, when the
  // page answered after `open` returned, at the next command, never later.
  expect(failure.message).toMatch(/command (1 \(open "|2 \(type "name=login"\))/);
  expect(failure.message).toMatch(/the identity provider answered error=invalid_request: .*PKCE/);
  expect(failure.message).not.toContain('no element matches');
  expect(failure.hint).toContain('code_challenge');
  expect(Date.now() - started).toBeLessThan(8000);
  expect(failure.render()).not.toContain(server.users.alice as string);
  rmSync(/screenshot: (\S+\.png)$/.exec(failure.message)?.[1] ?? '', { force: true });
});

test('every browser sign-in starts in a fresh context: a second one runs the recorded steps again', async ({ browser }) => {
  const plan = planFromYaml(recordedConfig(true));
  const first = await signIn(plan, 'alice', browser);
  // Had the provider's session cookie survived, it would send the browser straight to the
  // callback and command 2 (type name=login) would find no field.
  const second = await signIn(plan, 'alice', browser);
  expect(first.session.headers['X-Code']?.[0]).toBeTruthy();
  expect(second.session.headers['X-Code']?.[0]).toBeTruthy();
  expect(second.session.headers['X-Code']?.[0]).not.toBe(first.session.headers['X-Code']?.[0]);
});
