import { test, expect } from '@playwright/test';
import { Redactor } from '../../src/core/redactor.js';
import { explainPlan } from '../../src/compile/explain.js';
import { authenticate } from '../../src/runtime/engine/authenticate.js';
import { applySession } from '../../src/runtime/session/apply.js';
import { startLighttpd, type LighttpdServer } from '../support/servers/lighttpd.js';
import { startRelay, type Relay } from './support/relay.js';
import { planFromYaml, yamlString } from './support/sign-in.js';

// Issue 13, item 3: the `http` preset sends the user's username and password as HTTP Basic on its
// sign-in request (servers such as npm registries expect them there), and nowhere else: the session
// carries only what the sign-in produced. The server here is Debian's lighttpd, whose Basic-protected
// path answers with the user it authenticated.

test.describe.configure({ mode: 'default' });

let server: LighttpdServer;
let relay: Relay;
test.beforeAll(async () => {
  server = await startLighttpd();
  relay = await startRelay(server.url);
});
test.afterAll(async () => {
  await relay?.close();
  await server?.stop();
});

test('the http preset signs in with Basic on its login request only; the session never carries the password', async () => {
  const [user, password] = Object.entries(server.users)[0] as [string, string];
  const plan = planFromYaml(`
presets:
  - type: http
    request: { url: ${relay.url}${server.paths.basic}, method: GET }
    extractions: [{ name: who, location: body, key: user }]
    injections: [{ location: header, key: X-Signed-In-As, variable: who }]
    users: [{ username: ${yamlString(user)}, password: ${yamlString(password)} }]
`);
  const before = relay.exchanges.length;
  const session = await authenticate(plan, user, { redactor: new Redactor() });

  const [login] = relay.exchanges.slice(before);
  expect(login?.status).toBe(200);
  expect(login?.headers.authorization).toBe(`Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`);
  expect(session.headers).toEqual({ 'X-Signed-In-As': [user] });
  const later = applySession(session, { method: 'GET', url: `${relay.url}/api/items`, headers: [] });
  expect(later.headers).toEqual([['X-Signed-In-As', user]]);
  expect(JSON.stringify(session)).not.toContain(password);

  // Issue 16: explain said these users send Basic on every request; it says what was just seen.
  const explained = explainPlan(plan, new Redactor());
  expect(explained).toContain('  sends username and password as HTTP Basic on its sign-in requests that have no Authorization\n');
  expect(explained).not.toContain('on every request');
  expect(explained).toContain('  inject header X-Signed-In-As: {{who}}');
});
