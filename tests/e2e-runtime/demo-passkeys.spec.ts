import { expect } from '@playwright/test';
import { test } from '../support/demo.js';
import { newPasskeyCredential, signAssertion, type PasskeyKeyMaterial } from '../../src/core/webauthn/index.js';
import { publicKeyForms } from '../../src/core/webauthn/cose.js';
import { passkeyPublicKey } from '../../src/core/webauthn/credential.js';

/** The demo's passkey relying party over HTTP, answered by the core's signer (no browser). */

async function post(url: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function enrol(url: string, username: string, counter?: number): Promise<PasskeyKeyMaterial> {
  const key = newPasskeyCredential({ rpId: '127.0.0.1' });
  const cose = publicKeyForms(passkeyPublicKey(key.public_key)).cose;
  const answer = await post(`${url}/passkeys/test/enrol`, { username, id: key.id, public_key_cose: cose, user_handle: key.user_handle, counter });
  expect(answer.status).toBe(200);
  return key;
}

async function signIn(url: string, key: PasskeyKeyMaterial, counter: number, username?: string, path = '/api/passkeys/verify') {
  const options = await post(`${url}/api/passkeys/options`, username ? { username } : {});
  expect(options.status).toBe(200);
  return post(`${url}${path}`, signAssertion({ key, challenge: options.body.challenge as string, origin: url, counter }));
}

test('username-first options list the user\'s credentials; usernameless options none; a signed assertion gets a token /whoami accepts', async ({ demo }) => {
  demo.clear();
  const key = await enrol(demo.url, 'alice');
  const first = await post(`${demo.url}/api/passkeys/options`, { username: 'alice' });
  expect(first.body).toMatchObject({ rpId: '127.0.0.1', allowCredentials: [{ id: key.id, type: 'public-key' }] });
  const usernameless = await post(`${demo.url}/api/passkeys/options?wrap=1`, {});
  expect(usernameless.body).toMatchObject({ publicKey: { rpId: '127.0.0.1', allowCredentials: [] } });
  const verified = await post(`${demo.url}/api/passkeys/verify`, signAssertion({ key, challenge: first.body.challenge as string, origin: demo.url, counter: 1 }));
  expect(verified).toMatchObject({ status: 200, body: { user: 'alice', counter: 1 } });
  const whoami = await fetch(`${demo.url}/whoami`, { headers: { authorization: `Bearer ${verified.body.access_token as string}` } });
  expect(await whoami.json()).toMatchObject({ user: 'alice' });
  const anyone = await signIn(demo.url, key, 2);
  expect(anyone).toMatchObject({ status: 200, body: { user: 'alice', counter: 2 } });
});

test('the page route sets the sid cookie of the passkey\'s user', async ({ demo }) => {
  demo.clear();
  const key = await enrol(demo.url, 'bob');
  const options = await post(`${demo.url}/passkeys/authenticate/options`, {});
  const response = await fetch(`${demo.url}/passkeys/authenticate/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ credential: signAssertion({ key, challenge: options.body.challenge as string, origin: demo.url, counter: 1 }) }),
  });
  expect(response.status).toBe(200);
  const sid = /sid=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
  const whoami = await fetch(`${demo.url}/whoami`, { headers: { cookie: `sid=${sid}` } });
  expect(await whoami.json()).toMatchObject({ user: 'bob', via: 'cookie' });
});

test('strict counter: 0 after a stored 0 is refused, and so is a counter that did not grow; a grown one is accepted', async ({ demo }) => {
  demo.clear();
  const key = await enrol(demo.url, 'carol');
  expect(await signIn(demo.url, key, 0)).toMatchObject({ status: 401, body: { error: 'counter_not_increased', stored: 0, received: 0 } });
  expect(await signIn(demo.url, key, 5)).toMatchObject({ status: 200, body: { counter: 5 } });
  expect(await signIn(demo.url, key, 5)).toMatchObject({ status: 401, body: { error: 'counter_not_increased', stored: 5, received: 5 } });
  expect(await signIn(demo.url, key, 4)).toMatchObject({ status: 401, body: { error: 'counter_not_increased' } });
  expect(await signIn(demo.url, key, 6)).toMatchObject({ status: 200, body: { counter: 6 } });
  const stored = await (await fetch(`${demo.url}/passkeys/test/credentials?username=carol`)).json();
  expect(stored).toEqual({ credentials: [{ id: key.id, user: 'carol', counter: 6, user_handle: key.user_handle }] });
});

test('refused: a challenge used twice, another user\'s passkey after a username, another origin, an unknown credential', async ({ demo }) => {
  demo.clear();
  const key = await enrol(demo.url, 'dave');
  const options = await post(`${demo.url}/api/passkeys/options`, {});
  const challenge = options.body.challenge as string;
  expect(await post(`${demo.url}/api/passkeys/verify`, signAssertion({ key, challenge, origin: demo.url, counter: 1 }))).toMatchObject({ status: 200 });
  expect(await post(`${demo.url}/api/passkeys/verify`, signAssertion({ key, challenge, origin: demo.url, counter: 2 }))).toMatchObject({ status: 401, body: { error: 'unknown_challenge' } });
  expect(await signIn(demo.url, key, 3, 'alice')).toMatchObject({ status: 401, body: { error: 'wrong_user' } });
  const other = await post(`${demo.url}/api/passkeys/options`, {});
  expect(await post(`${demo.url}/api/passkeys/verify`, signAssertion({ key, challenge: other.body.challenge as string, origin: 'http://evil.test', counter: 4 }))).toMatchObject({ status: 401, body: { error: 'passkey_rejected' } });
  const stranger = newPasskeyCredential({ rpId: '127.0.0.1' });
  expect(await signIn(demo.url, stranger, 1)).toMatchObject({ status: 401, body: { error: 'unknown_credential' } });
});
