import { test, expect } from '@playwright/test';
import { generateKeyPairSync } from 'node:crypto';
import { decodeCBOR } from '@levischuck/tiny-cbor';
import { verifyAuthenticationResponse, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import { newPasskeyCredential, passkeyPrivateKey, passkeyPublicKey, PasskeyKeyError, readAssertionRequest, signAssertion, WebAuthnOptionsError } from '../../../src/core/webauthn/index.js';
import { publicKeyForms } from '../../../src/core/webauthn/cose.js';

const ORIGIN = 'https://app.example.test';
const RP_ID = 'app.example.test';

/** What a relying party stores at registration, from the COSE form only (as a server would have it). */
function enrolled(key: ReturnType<typeof newPasskeyCredential>, counter = 0) {
  return { id: key.id, publicKey: new Uint8Array(Buffer.from(publicKeyForms(passkeyPublicKey(key.public_key)).cose, 'base64url')), counter };
}

test('an assertion signed for a challenge is verified by @simplewebauthn/server against the COSE public key', async () => {
  const key = newPasskeyCredential({ rpId: RP_ID });
  const challenge = Buffer.from('a challenge of the server').toString('base64url');
  const assertion = signAssertion({ key, challenge, origin: ORIGIN, counter: 7 });
  const result = await verifyAuthenticationResponse({
    response: assertion as unknown as AuthenticationResponseJSON,
    expectedChallenge: challenge,
    expectedOrigin: ORIGIN,
    expectedRPID: RP_ID,
    credential: enrolled(key, 6),
    requireUserVerification: true,
  });
  expect(result.verified).toBe(true);
  expect(result.authenticationInfo).toMatchObject({ newCounter: 7, userVerified: true, credentialID: key.id, origin: ORIGIN, rpID: RP_ID });
  expect(assertion).toMatchObject({ id: key.id, rawId: key.id, type: 'public-key', response: { userHandle: key.user_handle } });
});

test('the library refuses the assertion for another origin, another rp id, another challenge or a tampered signature', async () => {
  const key = newPasskeyCredential({ rpId: RP_ID });
  const verify = (assertion: unknown, expected: { origin?: string; rpId?: string; challenge?: string } = {}) =>
    verifyAuthenticationResponse({
      response: assertion as AuthenticationResponseJSON,
      expectedChallenge: expected.challenge ?? 'Y2hhbGxlbmdl',
      expectedOrigin: expected.origin ?? ORIGIN,
      expectedRPID: expected.rpId ?? RP_ID,
      credential: enrolled(key),
    });
  const good = signAssertion({ key, challenge: 'Y2hhbGxlbmdl', origin: ORIGIN, counter: 1 });
  await expect(verify(good)).resolves.toMatchObject({ verified: true });
  await expect(verify(good, { origin: 'https://evil.test' })).rejects.toThrow(/origin/i);
  await expect(verify(good, { rpId: 'other.test' })).rejects.toThrow(/RP ID/i);
  await expect(verify(good, { challenge: 'b3RoZXI' })).rejects.toThrow(/challenge/i);
  const signature = Buffer.from(good.response.signature, 'base64url');
  signature[signature.length - 1]! ^= 1;
  const tampered = { ...good, response: { ...good.response, signature: signature.toString('base64url') } };
  await expect(verify(tampered)).resolves.toMatchObject({ verified: false });
});

test('authenticator data: SHA-256 of the rp id, flags UP and UV, the counter big-endian', () => {
  const key = newPasskeyCredential({ rpId: RP_ID });
  const data = Buffer.from(signAssertion({ key, challenge: 'AA', origin: ORIGIN, counter: 0x01020304 }).response.authenticatorData, 'base64url');
  expect(data.length).toBe(37);
  expect(data[32]).toBe(0x05);
  expect([...data.subarray(33)]).toEqual([1, 2, 3, 4]);
  const clientData = JSON.parse(Buffer.from(signAssertion({ key, challenge: 'AA', origin: ORIGIN, counter: 1 }).response.clientDataJSON, 'base64url').toString());
  expect(clientData).toEqual({ type: 'webauthn.get', challenge: 'AA', origin: ORIGIN, crossOrigin: false });
});

test('the COSE form is an EC2 P-256 ES256 key whose x and y are the JWK\'s', () => {
  const key = newPasskeyCredential({ rpId: RP_ID });
  const forms = publicKeyForms(passkeyPublicKey(key.public_key));
  const cose = decodeCBOR(new Uint8Array(Buffer.from(forms.cose, 'base64url'))) as Map<number, unknown>;
  expect(cose.get(1)).toBe(2);
  expect(cose.get(3)).toBe(-7);
  expect(cose.get(-1)).toBe(1);
  expect(Buffer.from(cose.get(-2) as Uint8Array).toString('base64url')).toBe(forms.jwk.x);
  expect(Buffer.from(cose.get(-3) as Uint8Array).toString('base64url')).toBe(forms.jwk.y);
  expect(forms.spki).toBe(key.public_key);
  expect(forms.jwk).toMatchObject({ kty: 'EC', crv: 'P-256' });
});

test('keys that do not parse, or are not P-256, are refused without quoting them', () => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64url');
  const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64url');
  const garbage = 'bm90LWEta2V5LXNlY3JldA';
  for (const [text, message] of [
    [garbage, /private_key is not a PKCS#8 private key/],
    ['not base64 at all!', /private_key is not base64url text/],
    [rsa, /private_key is a rsa key; passkeys here are ES256/],
    [p384, /private_key is a ec key; passkeys here are ES256/],
  ] as const) {
    let error: unknown;
    try {
      passkeyPrivateKey(text);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PasskeyKeyError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain(text.slice(0, 12));
  }
});

test('request options: a JSON text or an object, with or without the publicKey wrapper; bad shapes are refused', () => {
  const options = { challenge: 'Q0g', rpId: RP_ID, allowCredentials: [{ id: 'AQI', type: 'public-key' }] };
  const expected = { challenge: 'Q0g', rpId: RP_ID, allowCredentials: ['AQI'] };
  expect(readAssertionRequest(JSON.stringify(options))).toEqual(expected);
  expect(readAssertionRequest(JSON.stringify({ publicKey: options }))).toEqual(expected);
  expect(readAssertionRequest({ publicKey: options })).toEqual(expected);
  expect(readAssertionRequest({ challenge: 'Q0g' })).toEqual({ challenge: 'Q0g', allowCredentials: [] });
  for (const [value, message] of [
    ['<html>', /not JSON/],
    ['[1]', /not a JSON object/],
    [{ rpId: RP_ID }, /no challenge/],
    [{ challenge: 'Q0g', rpId: 3 }, /rpId is not a string/],
    [{ challenge: 'Q0g', allowCredentials: [{ type: 'public-key' }] }, /has no string id/],
    ['x'.repeat(300_000), /more than the/],
  ] as const) {
    expect(() => readAssertionRequest(value)).toThrow(WebAuthnOptionsError);
    expect(() => readAssertionRequest(value)).toThrow(message);
  }
});
