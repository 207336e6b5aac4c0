import { decodeJwtPayload } from '../../src/runtime/engine/jwt.js';
import { whoami } from '../support/whoami.js';
import { expect, signIn, test } from './support.js';
import { planFromYaml } from '../support/plan.js';

/** A generic procedure whose one `tech: browser` operation signs in through the identity provider. */
function ssoConfig(appUrl: string): string {
  return `
procedures:
  - name: sso
    operations:
      - tech: browser
        parameters:
          options: { wait_for_seconds: 10 }
          project:
            url: ${appUrl}
            tests:
              - id: t1
                name: sign in through the identity provider
                commands:
                  - { id: c1, command: open, target: /sso/start }
                  - { id: c2, command: type, target: id=idp-username, value: "{{username}}" }
                  - { id: c3, command: type, target: id=idp-password, value: "\${password}" }
                  - { id: c4, command: click, target: "css=#idp-submit" }
                  - { id: c5, command: waitForElementPresent, target: "css=[data-signed-in]" }
        extractions:
          - { name: session_id, location: cookie, key: sid }
    injections:
      - { location: cookie, key: sid, variable: session_id }
users:
  - name: carol
    procedure: sso
    credentials: { username: carol, password: carol-password }
`;
}

/** DESIGN.md's mixed procedure: the browser gets a code from the callback URL, an http step exchanges it. */
function mixedConfig(appUrl: string): string {
  return `
procedures:
  - name: sso-then-api-token
    operations:
      - tech: browser
        parameters:
          options: { wait_for_seconds: 10 }
          project:
            tests:
              - id: t1
                name: sign in
                commands:
                  - { id: c1, command: open, target: "${appUrl}/sso/start?client_id=demo-cli" }
                  - { id: c2, command: type, target: "id=idp-username", value: "{{username}}" }
                  - { id: c3, command: type, target: "id=idp-password", value: "{{password}}" }
                  - { id: c4, command: click, target: "css=button[type=submit]" }
                  - { id: c5, command: wait, target: "request_url_contains=/callback", value: "10" }
        extractions:
          - { name: code, location: query, key: code }
      - tech: http
        parameters:
          url: ${appUrl}/oauth/token
          method: POST
          headers: [{ name: Content-Type, values: [application/x-www-form-urlencoded] }]
          body: "grant_type=authorization_code&code={{code}}"
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

test('a tech: browser operation signs carol in through the identity provider on its second origin', async ({ demo, browser }) => {
  expect(new URL(demo.idpUrl).port).not.toBe(new URL(demo.url).port);
  const before = demo.counters.endpoints;
  const { session } = await signIn(planFromYaml(ssoConfig(demo.url)), 'carol', browser);
  const after = demo.counters.endpoints;
  for (const hop of ['GET /sso/start', 'GET /authorize', 'POST /authorize', 'GET /sso/callback', 'GET /app']) {
    expect(after[hop] ?? 0, hop).toBe((before[hop] ?? 0) + 1);
  }

  const sid = session.variables.session_id ?? '';
  expect(demo.state.sessions.get(sid)).toBe('carol');
  expect(session.cookies.filter((cookie) => cookie.name === 'sid').map((cookie) => cookie.value)).toContain(sid);
  const token = session.origins.find((o) => o.origin === demo.url)?.localStorage.find((i) => i.name === 'access_token')?.value ?? '';
  expect(decodeJwtPayload(token)).toMatchObject({ sub: 'carol' });
  expect(await whoami(demo.url, session)).toEqual({ status: 200, user: 'carol', via: 'cookie', role: 'viewer' });
});

test('the mixed procedure: the browser reads the code from the callback URL, an http step exchanges it', async ({ demo, browser }) => {
  const exchangesBefore = demo.counters.endpoints['POST /oauth/token'] ?? 0;
  const { session, redactor } = await signIn(planFromYaml(mixedConfig(demo.url), { ALICE_PASSWORD: 'alice-password' }), 'alice', browser);

  const code = session.variables.code ?? '';
  expect(code).toMatch(/^code_[0-9a-f]{32}$/);
  expect(demo.counters.endpoints['POST /oauth/token']).toBe(exchangesBefore + 1);
  const token = session.variables.access_token ?? '';
  expect(session.headers.Authorization).toEqual([`Bearer ${token}`]);
  expect(decodeJwtPayload(token)).toMatchObject({ sub: 'alice' });
  expect(await whoami(demo.url, session)).toEqual({ status: 200, user: 'alice', via: 'header', role: 'admin' });
  // The code was used once: it is a secret of the run, and the server will not take it again.
  expect(redactor.redact(`code=${code}`)).not.toContain(code);
  const again = await fetch(`${demo.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `grant_type=authorization_code&code=${code}`,
  });
  expect(again.status).toBe(400);
  expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
});
