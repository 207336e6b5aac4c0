import { createHash, sign } from 'node:crypto';
import { decodeBase64url, passkeyPrivateKey, type PasskeyKeyMaterial } from './credential.js';

/** An assertion in the JSON shape servers take (`PublicKeyCredential.toJSON()` of a `get()`). */
export interface AssertionJson {
  id: string;
  rawId: string;
  type: 'public-key';
  response: {
    clientDataJSON: string;
    authenticatorData: string;
    signature: string;
    userHandle: string;
  };
  clientExtensionResults: Record<string, never>;
  authenticatorAttachment: 'platform';
}

/** What {@link signAssertion} signs. */
export interface AssertionInput {
  /** The credential: its id, user handle, private key, relying party. */
  key: Pick<PasskeyKeyMaterial, 'id' | 'user_handle' | 'private_key' | 'rp_id'>;
  /** The server's challenge, base64url, copied as sent. */
  challenge: string;
  /** The origin the page or request has (`https://app.example.com`), as the server expects it. */
  origin: string;
  /** The signature counter this assertion carries (0 to 2^32 - 1). */
  counter: number;
}

/** Authenticator data flags: user present, user verified (WebAuthn §6.1). */
const FLAG_UP = 0x01;
const FLAG_UV = 0x04;

/**
 * Signs an assertion as an authenticator does: authenticator data = SHA-256(rp id) | flags UP+UV |
 * counter (big-endian 32 bits); client data = `{type: "webauthn.get", challenge, origin}`; the
 * signature is ECDSA P-256 / SHA-256, DER-encoded, over authenticator data || SHA-256(client data).
 *
 * @throws PasskeyKeyError when the private key or the id does not parse.
 * @see https://www.w3.org/TR/webauthn-3/#sctn-op-get-assertion
 * @example
 * const assertion = signAssertion({ key, challenge: options.challenge, origin: 'https://app.example.com', counter: 1 });
 * await fetch(verifyUrl, { method: 'POST', body: JSON.stringify(assertion) });
 */
export function signAssertion(input: AssertionInput): AssertionJson {
  const { key, challenge, origin, counter } = input;
  if (!Number.isInteger(counter) || counter < 0 || counter > 0xffffffff) throw new RangeError('signAssertion: counter must be a whole number from 0 to 2^32 - 1');
  const privateKey = passkeyPrivateKey(key.private_key);
  const id = decodeBase64url(key.id, 'id').toString('base64url');
  const userHandle = decodeBase64url(key.user_handle, 'user_handle').toString('base64url');
  const authenticatorData = Buffer.alloc(37);
  createHash('sha256').update(key.rp_id, 'utf8').digest().copy(authenticatorData, 0);
  authenticatorData[32] = FLAG_UP | FLAG_UV;
  authenticatorData.writeUInt32BE(counter, 33);
  const clientData = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge, origin, crossOrigin: false }), 'utf8');
  const signed = Buffer.concat([authenticatorData, createHash('sha256').update(clientData).digest()]);
  const signature = sign('sha256', signed, { key: privateKey, dsaEncoding: 'der' });
  return {
    id,
    rawId: id,
    type: 'public-key',
    response: {
      clientDataJSON: clientData.toString('base64url'),
      authenticatorData: authenticatorData.toString('base64url'),
      signature: signature.toString('base64url'),
      userHandle,
    },
    clientExtensionResults: {},
    authenticatorAttachment: 'platform',
  };
}
