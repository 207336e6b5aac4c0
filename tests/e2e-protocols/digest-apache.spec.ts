import { test, expect } from '@playwright/test';
import { Redactor } from '../../src/core/redactor.js';
import { authenticate } from '../../src/runtime/engine/authenticate.js';
import { startApache, type ApacheServer } from '../support/servers/apache.js';
import { digestConfig, expectDigestSessionWorks, expectSignInExchanges } from './support/digest.js';
import { startRelay, type Relay } from './support/relay.js';
import { expectNoSecrets, planFromYaml, signInFailure } from './support/sign-in.js';

test.describe.configure({ mode: 'default' });

let server: ApacheServer;
/** Passes everything through unchanged; records what Apache was sent. */
let relay: Relay;
test.beforeAll(async () => {
  server = await startApache();
  relay = await startRelay(server.url);
});
test.afterAll(async () => {
  await relay?.close();
  await server?.stop();
});

test('MD5 (all Apache offers): the digest preset and a tech: digest procedure sign in, and later requests are answered', async () => {
  const url = `${relay.url}${server.paths.md5}`;
  const plan = planFromYaml(digestConfig(url, ['alice', server.users.alice as string], ['bob', server.users.bob as string]));

  const alice = await authenticate(plan, 'alice', { redactor: new Redactor() });
  expectSignInExchanges(relay, 0, 'alice', server.paths.md5, 'MD5');
  await expectDigestSessionWorks(alice, url, 'alice', { algorithm: 'MD5', qop: 'auth' });

  const before = relay.exchanges.length;
  const bob = await authenticate(plan, 'bob', { redactor: new Redactor() });
  expectSignInExchanges(relay, before, 'bob', `${server.paths.md5}?answer=1`, 'MD5');
  expect(bob.variables.seen_user).toBe('bob');
  await expectDigestSessionWorks(bob, url, 'bob', { algorithm: 'MD5', qop: 'auth' });
});

test('a wrong password fails with Apache\'s 401, for the preset and for the procedure, the password never shown', async () => {
  const url = `${server.url}${server.paths.md5}`;
  const wrong = 'Circle of Strife';
  const plan = planFromYaml(digestConfig(url, ['alice', wrong], ['bob', server.users.alice as string]));
  for (const [user, secret] of [['alice', wrong], ['bob', server.users.alice as string]] as const) {
    const redactor = new Redactor();
    const error = await signInFailure(authenticate(plan, user, { redactor }));
    expect(error.code).toBe('AUTH_HTTP_STATUS');
    expect(error.message).toBe('the server rejected the digest answer (HTTP 401)');
    expect(error.context).toMatchObject({ user, status: 401, stepKind: 'digest' });
    expect(expectNoSecrets(error, redactor, [secret])).toContain(`realm "${server.realm}", algorithm MD5, qop auth`);
  }
});
