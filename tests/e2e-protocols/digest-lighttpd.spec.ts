import { test, expect } from '@playwright/test';
import { Redactor } from '../../src/core/redactor.js';
import { authenticate } from '../../src/runtime/engine/authenticate.js';
import { startLighttpd, type LighttpdServer } from '../support/servers/lighttpd.js';
import { digestConfig, expectDigestSessionWorks, expectSignInExchanges, type DigestExpectation } from './support/digest.js';
import { startRelay, type Relay } from './support/relay.js';
import { expectNoSecrets, planFromYaml, signInFailure } from './support/sign-in.js';

test.describe.configure({ mode: 'default' });

/**
 * lighttpd verifies MD5-sess, SHA-256-sess and RFC 2069 (no qop) answers but only ever offers
 * `algorithm=MD5` / `SHA-256` with `qop="auth"`; since a client answers what it is offered, a relay
 * that rewrites only the challenge text lets the runtime answer those variants, which lighttpd
 * itself then verifies.
 */
const asSess = (value: string) => value.replace(/algorithm=("?)(MD5|SHA-256)\1(?=\s*,|\s*$)/i, 'algorithm=$2-sess');
const withoutQop = (value: string) => value.replace(/,\s*qop="?auth"?/i, '');

const FLAVOURS: Array<{ name: string; path: 'md5' | 'sha256'; rewrite?: (value: string) => string; expected: DigestExpectation }> = [
  { name: 'MD5', path: 'md5', expected: { algorithm: 'MD5', qop: 'auth' } },
  { name: 'SHA-256', path: 'sha256', expected: { algorithm: 'SHA-256', qop: 'auth' } },
  { name: 'MD5-sess', path: 'md5', rewrite: asSess, expected: { algorithm: 'MD5-sess', qop: 'auth' } },
  { name: 'SHA-256-sess', path: 'sha256', rewrite: asSess, expected: { algorithm: 'SHA-256-sess', qop: 'auth' } },
  { name: 'MD5 without qop (RFC 2069)', path: 'md5', rewrite: withoutQop, expected: { algorithm: 'MD5' } },
  { name: 'SHA-256 without qop', path: 'sha256', rewrite: withoutQop, expected: { algorithm: 'SHA-256' } },
];

let server: LighttpdServer;
const relays = new Map<string, Relay>();
test.beforeAll(async () => {
  server = await startLighttpd();
  for (const flavour of FLAVOURS) {
    relays.set(flavour.name, await startRelay(server.url, flavour.rewrite ? { rewriteChallenge: flavour.rewrite } : {}));
  }
});
test.afterAll(async () => {
  for (const relay of relays.values()) await relay.close();
  await server?.stop();
});

const password = (user: 'alice' | 'bob') => server.users[user] as string;

for (const flavour of FLAVOURS) {
  test(`${flavour.name}: the digest preset and a tech: digest procedure sign in, and later requests are answered`, async () => {
    const relay = relays.get(flavour.name) as Relay;
    const url = `${relay.url}${server.paths[flavour.path]}`;
    const plan = planFromYaml(digestConfig(url, ['alice', password('alice')], ['bob', password('bob')]));

    const alice = await authenticate(plan, 'alice', { redactor: new Redactor() });
    expectSignInExchanges(relay, 0, 'alice', server.paths[flavour.path], flavour.expected.algorithm);
    await expectDigestSessionWorks(alice, url, 'alice', flavour.expected);

    const before = relay.exchanges.length;
    const bob = await authenticate(plan, 'bob', { redactor: new Redactor() });
    expectSignInExchanges(relay, before, 'bob', `${server.paths[flavour.path]}?answer=1`, flavour.expected.algorithm);
    expect(bob.variables.seen_user).toBe('bob');
    await expectDigestSessionWorks(bob, url, 'bob', flavour.expected);
  });
}

test('offered MD5 and SHA-256 at once, the session answers SHA-256 and keeps answering it', async () => {
  const url = `${server.url}${server.paths.both}`;
  const plan = planFromYaml(digestConfig(url, ['alice', password('alice')], ['bob', password('bob')]));
  const alice = await authenticate(plan, 'alice', { redactor: new Redactor() });
  await expectDigestSessionWorks(alice, url, 'alice', { algorithm: 'SHA-256', qop: 'auth' });
});

test('userhash=true: the hashed username is accepted at sign-in and afterwards', async () => {
  const url = `${server.url}${server.paths.userhash}`;
  const plan = planFromYaml(digestConfig(url, ['alice', password('alice')], ['bob', password('bob')]));
  const bob = await authenticate(plan, 'bob', { redactor: new Redactor() });
  expect(bob.digest?.userhash).toBe(true);
  expect(bob.variables.seen_user).toBe('bob');
  await expectDigestSessionWorks(bob, url, 'bob', { algorithm: 'SHA-256', qop: 'auth' });
});

test('a wrong password fails with the server\'s 401, for the preset and for the procedure, the password never shown', async () => {
  const url = `${server.url}${server.paths.sha256}`;
  const wrong = 'not Circle of Life';
  const plan = planFromYaml(digestConfig(url, ['alice', wrong], ['bob', password('alice')]));
  for (const [user, secret] of [['alice', wrong], ['bob', password('alice')]] as const) {
    const redactor = new Redactor();
    const error = await signInFailure(authenticate(plan, user, { redactor }));
    expect(error.code).toBe('AUTH_HTTP_STATUS');
    expect(error.message).toBe('the server rejected the digest answer (HTTP 401)');
    expect(error.context).toMatchObject({ user, status: 401, stepKind: 'digest', step: 0 });
    const rendered = expectNoSecrets(error, redactor, [secret]);
    expect(rendered).toContain(`realm "${server.realm}", algorithm SHA-256, qop auth`);
  }
});
