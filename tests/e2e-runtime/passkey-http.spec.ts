import { MultiAuthError } from '../../src/core/errors.js';
import { Redactor } from '../../src/core/redactor.js';
import { authenticate, signInUser } from '../../src/runtime/engine/authenticate.js';
import { newPasskeyCredential, passkeyPublicKey, type PasskeyKeyMaterial } from '../../src/core/webauthn/index.js';
import { publicKeyForms } from '../../src/core/webauthn/cose.js';
import { test, expect } from '../support/demo.js';
import { planFromYaml } from '../support/plan.js';
import { whoami } from '../support/whoami.js';
import { runCliAsync } from '../support/cli.js';
import { writeTempConfig } from '../support/temp-files.js';

/**
 * The HTTP-only passkey sign-in (issue 28, docs/passkeys.md "HTTP-only"): an `http` procedure asks
 * the demo relying party for options, answers with `{{ webauthn_assertion(options) }}` and posts it
 * to the verify route, which @simplewebauthn/server checks; no browser.
 */

async function enrol(url: string, username: string, key: PasskeyKeyMaterial): Promise<void> {
  const response = await fetch(`${url}/passkeys/test/enrol`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, id: key.id, user_handle: key.user_handle, public_key_cose: publicKeyForms(passkeyPublicKey(key.public_key)).cose }),
  });
  expect(response.status).toBe(200);
}

/** A config whose user signs in with its passkey over HTTP; `options` is the options request's body and query. */
function passkeyConfig(url: string, opts: { optionsBody?: string; query?: string; extraction?: string; assertion?: string; signCount?: number; rpId?: string } = {}): string {
  return `
users:
  - name: alice
    procedure: passkey
    passkey:
      rp_id: "${opts.rpId ?? '${PK_RP_ID}'}"
      id: "\${PK_ID}"
      user_handle: "\${PK_USER_HANDLE}"
      private_key: "\${PK_PRIVATE_KEY}"
      public_key: "\${PK_PUBLIC_KEY}"
      sign_count: ${opts.signCount ?? 0}
procedures:
  - name: passkey
    operations:
      - tech: http
        parameters:
          url: ${url}/api/passkeys/options${opts.query ?? '?wrap=1'}
          method: POST
          body: ${opts.optionsBody ?? '{ username: alice }'}
        extractions:
          - ${opts.extraction ?? '{ name: options, location: body, key: publicKey }'}
      - tech: http
        parameters:
          url: ${url}/api/passkeys/verify
          method: POST
          headers: [{ name: Content-Type, values: [application/json] }]
          body: "${opts.assertion ?? '{{ webauthn_assertion(options) }}'}"
        extractions:
          - { name: access_token, location: body, key: access_token }
    injections:
      - { location: header, key: Authorization, prefix: Bearer, variable: access_token }
`;
}

async function thrown(promise: Promise<unknown>): Promise<MultiAuthError> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(MultiAuthError);
  return error as MultiAuthError;
}

function envOf(key: PasskeyKeyMaterial): Record<string, string> {
  return { PK_RP_ID: key.rp_id, PK_ID: key.id, PK_USER_HANDLE: key.user_handle, PK_PRIVATE_KEY: key.private_key, PK_PUBLIC_KEY: key.public_key };
}

test('options -> webauthn_assertion(options) -> verify: the library accepts it, the token is alice\'s, the counter is sign_count + 1', async ({ demo }) => {
  demo.clear();
  const key = newPasskeyCredential({ rpId: '127.0.0.1' });
  await enrol(demo.url, 'alice', key);
  const plan = planFromYaml(passkeyConfig(demo.url, { signCount: 4 }), envOf(key));
  const session = await authenticate(plan, 'alice', { redactor: new Redactor() });
  expect(await whoami(demo.url, session)).toMatchObject({ status: 200, user: 'alice', via: 'header' });
  expect(demo.state.passkeys.credentials.get(key.id)?.counter).toBe(5);
});

test('usernameless options (empty allowCredentials) answered bare, read whole (key ""), and an explicit origin', async ({ demo }) => {
  demo.clear();
  const key = newPasskeyCredential({ rpId: '127.0.0.1' });
  await enrol(demo.url, 'alice', key);
  const plan = planFromYaml(
    passkeyConfig(demo.url, {
      optionsBody: '{}',
      query: '',
      extraction: '{ name: options, location: body, key: "" }',
      assertion: `{{ webauthn_assertion(options, '${demo.url}/ignored/path') }}`,
    }),
    envOf(key),
  );
  const session = await authenticate(plan, 'alice', { redactor: new Redactor() });
  expect(await whoami(demo.url, session)).toMatchObject({ status: 200, user: 'alice' });
});

test('the counter continues from what the last sign-in kept (as the store hands it back), without the private key in it', async ({ demo }) => {
  demo.clear();
  const key = newPasskeyCredential({ rpId: '127.0.0.1' });
  await enrol(demo.url, 'alice', key);
  const plan = planFromYaml(passkeyConfig(demo.url, { signCount: 2 }), envOf(key));
  let kept = (await signInUser(plan, 'alice', { redactor: new Redactor() })).passkey;
  for (const expected of [4, 5]) {
    const result = await signInUser(plan, 'alice', { redactor: new Redactor(), passkey: kept });
    expect(result.passkey).toMatchObject({ id: key.id, signCount: expected });
    kept = result.passkey;
  }
  expect(kept).not.toHaveProperty('privateKey');
  expect(JSON.stringify(kept)).not.toContain(key.private_key);
  expect(demo.state.passkeys.credentials.get(key.id)?.counter).toBe(5);
});

test('passkey: register: refused before a browser registered one; the registered one the store hands back signs', async ({ demo }) => {
  demo.clear();
  const key = newPasskeyCredential({ rpId: '127.0.0.1' });
  await enrol(demo.url, 'alice', key);
  const config = passkeyConfig(demo.url).replace(/    passkey:\n(?: {6}.*\n)+/, '    passkey: register\n');
  const plan = planFromYaml(config);
  const error = await thrown(signInUser(plan, 'alice', { redactor: new Redactor() }));
  expect(error.message).toBe('webauthn_assertion(): the user\'s passkey is "register" and no browser sign-in has registered it yet');
  expect(error.context).toMatchObject({ user: 'alice', procedure: 'passkey', step: 1 });
  const registered = { rpId: key.rp_id, id: key.id, userHandle: key.user_handle, privateKey: key.private_key, publicKey: key.public_key, signCount: 3 };
  const result = await signInUser(plan, 'alice', { redactor: new Redactor(), passkey: registered });
  expect(result.passkey).toMatchObject({ id: key.id, signCount: 4, privateKey: key.private_key });
  expect(demo.state.passkeys.credentials.get(key.id)?.counter).toBe(4);
});

test('a strict relying party refuses a counter that did not grow: the error names the user, the step and the server\'s reason', async ({ demo }) => {
  demo.clear();
  const key = newPasskeyCredential({ rpId: '127.0.0.1' });
  await enrol(demo.url, 'alice', key);
  const plan = planFromYaml(passkeyConfig(demo.url), envOf(key));
  await authenticate(plan, 'alice', { redactor: new Redactor() });
  // The same sign_count again (no store here): the relying party saw 1 already.
  const error = await thrown(authenticate(plan, 'alice', { redactor: new Redactor() }));
  expect(error.code).toBe('AUTH_HTTP_STATUS');
  expect(error.context).toMatchObject({ user: 'alice', procedure: 'passkey', step: 1, status: 401 });
  expect(error.render()).toContain('counter_not_increased');
});

test('a passkey wrong for the sign-in (another rp id, a key that does not parse) is AUTH_PASSKEY, as in a browser sign-in, with the user, procedure and step', async ({ demo }) => {
  demo.clear();
  const key = newPasskeyCredential({ rpId: '127.0.0.1' });
  await enrol(demo.url, 'alice', key);
  const cases: Array<[string, Record<string, string>, RegExp, RegExp]> = [
    [passkeyConfig(demo.url, { rpId: 'app.example.test' }), envOf(key), /^webauthn_assertion\(\): the server asks for a passkey of rp id "127\.0\.0\.1"; the user's passkey is for "app\.example\.test"$/, /Set the passkey's rp_id/],
    [passkeyConfig(demo.url), { ...envOf(key), PK_PRIVATE_KEY: 'bm90LWEtcmVhbC1rZXk' }, /^webauthn_assertion\(\): the user's passkey: private_key is not a PKCS#8 private key/, /multiauth passkey new/],
  ];
  for (const [config, env, message, hint] of cases) {
    const error = await thrown(authenticate(planFromYaml(config, env), 'alice', { redactor: new Redactor() }));
    expect(error.code).toBe('AUTH_PASSKEY');
    expect(error.message).toMatch(message);
    expect(error.hint).toMatch(hint);
    expect(error.context).toMatchObject({ user: 'alice', procedure: 'passkey', step: 1 });
    expect(error.path).toEqual(['procedures', 0, 'operations', 1, 'body']);
    expect(error.render()).not.toContain(env.PK_PRIVATE_KEY!);
  }
  // The CLI exits as for every AUTH_PASSKEY (1, a sign-in that failed), not 2 (a config mistake).
  const { dir, remove } = writeTempConfig(passkeyConfig(demo.url, { rpId: 'app.example.test' }));
  try {
    const run = await runCliAsync(['login', 'alice'], { cwd: dir, env: envOf(key) });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('webauthn_assertion(): the server asks for a passkey of rp id "127.0.0.1"; the user\'s passkey is for "app.example.test"');
    expect(run.stderr).toContain('while signing in user "alice", procedure "passkey", step 2 (http)');
    expect(run.stderr).toMatch(/\[AUTH_PASSKEY\]\s*$/);
    expect(run.stderr).not.toContain(key.private_key);
  } finally {
    remove();
  }
});

test('errors: no allowCredentials match, options without challenge, a user without passkey; never the key', async ({ demo }) => {
  demo.clear();
  const key = newPasskeyCredential({ rpId: '127.0.0.1' });
  const other = newPasskeyCredential({ rpId: '127.0.0.1' });
  await enrol(demo.url, 'alice', other);
  const cases: Array<[string, Record<string, string>, RegExp, RegExp]> = [
    [passkeyConfig(demo.url), envOf(key), new RegExp(`allowCredentials \\(1\\) does not list the user's passkey id "${key.id}"`), /Enrol this passkey for the user/],
    [passkeyConfig(demo.url, { extraction: '{ name: options, location: body, key: rpId }' }), envOf(key), /the options are not JSON/, /variable that holds the server's options/],
    [passkeyConfig(demo.url, { assertion: "{{ webauthn_assertion('{}') }}" }), envOf(key), /the options have no challenge/, /docs\/passkeys.md/],
    [passkeyConfig(demo.url, { assertion: "{{ webauthn_assertion(options, 'ftp://x') }}" }), envOf(other), /origin has the scheme ftp:/, /scheme:\/\/host/],
  ];
  for (const [config, env, message, hint] of cases) {
    const redactor = new Redactor();
    const error = await thrown(authenticate(planFromYaml(config, env), 'alice', { redactor }));
    expect(error).toBeInstanceOf(MultiAuthError);
    expect(error.code).toBe('TEMPLATE_FUNCTION_FAILED');
    expect(error.message).toMatch(message);
    expect(error.hint).toMatch(hint);
    expect(error.context).toMatchObject({ user: 'alice', procedure: 'passkey', step: 1 });
    const text = error.render();
    expect(text).not.toContain(env.PK_PRIVATE_KEY!);
  }
  const none = await thrown(authenticate(planFromYaml(`
users:
  - name: bob
    procedure: p
procedures:
  - name: p
    operations:
      - tech: http
        parameters: { url: "${demo.url}/api/passkeys/verify", method: POST, body: "{{ webauthn_assertion('{\\"challenge\\":\\"Q0g\\"}') }}" }
`), 'bob', { redactor: new Redactor() }));
  expect(none.message).toBe('webauthn_assertion(): the user has no passkey');
  expect(none.context).toMatchObject({ user: 'bob', procedure: 'p', step: 0 });
});
