import { MultiAuthError } from '../../src/core/errors.js';
import { HOSTILE_SECRETS, startHostileProvider, type HostileProvider } from '../support/servers/hostile-provider.js';
import { planFromYaml } from '../support/plan.js';
import { expect, signIn, test } from './support.js';

// Issue 23, items 2, 3 and 15: `oauth_authz_code_browser` against a provider that misbehaves on
// purpose. Each failure is a located error that prints no code, state, header, cookie or
// password, within wait_for_seconds; an endless page costs a bounded number of bytes; a script
// on the provider's page cannot complete the sign-in with a code of its choosing.

let provider: HostileProvider;
test.beforeAll(async () => {
  provider = await startHostileProvider();
});
test.afterAll(async () => {
  await provider?.close();
});

async function failure(mode: Parameters<HostileProvider['config']>[0], browser: Parameters<typeof signIn>[2]): Promise<{ error: MultiAuthError; elapsedMs: number }> {
  const started = Date.now();
  const error = await signIn(planFromYaml(provider.config(mode)), 'alice', browser).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(MultiAuthError);
  return { error: error as MultiAuthError, elapsedMs: Date.now() - started };
}

function expectNothingSecret(error: MultiAuthError): void {
  const text = `${error.render()}\n${error.stack ?? ''}\n${JSON.stringify(error.context)}`;
  const state = provider.states.at(-1) ?? '';
  expect(state.length).toBeGreaterThan(10);
  for (const secret of [...Object.values(HOSTILE_SECRETS), state]) expect(text).not.toContain(secret);
  expect(text).not.toMatch(/\u001b/);
  expect(text).not.toContain('Call log');
}

test('a provider that redirects to a port where nothing listens: a located AUTH_NETWORK error, nothing secret in it', async ({ browser }) => {
  const { error } = await failure('unreachable', browser);
  expect(error.code).toBe('AUTH_NETWORK');
  expect(error.message).toBe('the provider\'s page could not be loaded: request failed: ECONNREFUSED');
  expect(error.context).toMatchObject({ user: 'alice', procedure: 'preset[0]:oauth_authz_code_browser:alice', step: 0, stepKind: 'browser (authorization)', method: 'GET' });
  expect(error.context?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/continue\?code=…&state=…$/);
  expect(error.hint).toMatch(/Nothing is listening there/);
  expectNothingSecret(error);
});

test('a provider that never answers: AUTH_TIMEOUT within wait_for_seconds', async ({ browser }) => {
  const { error, elapsedMs } = await failure('silent', browser);
  expect(error.code).toBe('AUTH_TIMEOUT');
  expect(error.message).toBe('the provider\'s page did not load: no complete answer within 2 s');
  expect(error.context?.url).toMatch(/\/silent\/auth\?response_type=…&client_id=…&redirect_uri=…&scope=…&state=…/);
  expect(elapsedMs).toBeLessThan(8_000);
  expectNothingSecret(error);
});

test('a page that never ends: refused after a bounded number of bytes', async ({ browser }) => {
  const { error } = await failure('endless', browser);
  expect(error.code).toBe('AUTH_NETWORK');
  expect(error.message).toBe('the provider\'s page is too large: the page is larger than 5 MB');
  // What the server could write before the connection closed: the limit and the sockets' buffers.
  expect(provider.endlessBytes).toBeLessThan(64 * 1024 * 1024);
  expectNothingSecret(error);
});

test('a page that trickles for ever: AUTH_TIMEOUT within wait_for_seconds', async ({ browser }) => {
  const { error, elapsedMs } = await failure('trickle', browser);
  expect(error.code).toBe('AUTH_TIMEOUT');
  expect(elapsedMs).toBeLessThan(8_000);
  expectNothingSecret(error);
});

test('a script that asks the redirect URI for a code of its choosing does not complete the sign-in; the provider\'s redirect does', async ({ browser }) => {
  const before = provider.codes.length;
  const { session } = await signIn(planFromYaml(provider.config('script')), 'alice', browser);
  expect(session.headers.Authorization).toEqual(['Bearer hostile-access-token-0c0ffee']);
  expect(provider.codes.slice(before)).toEqual([HOSTILE_SECRETS.goodCode]);
});
