import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';

/**
 * A passkey as the config holds it (`passkey:` of a user) and as Playwright's
 * `context.credentials` takes it: base64url strings; the private key PKCS#8, the public key SPKI.
 */
export interface PasskeyKeyMaterial {
  /** The relying party the credential belongs to (a host name: `example.com`, `127.0.0.1`). */
  rp_id: string;
  /** Credential id, base64url. */
  id: string;
  /** WebAuthn's `user.id` for this account, base64url (answered as `userHandle`). */
  user_handle: string;
  /** PKCS#8 DER, base64url. A secret. */
  private_key: string;
  /** SPKI DER, base64url. */
  public_key: string;
}

/** Options of {@link newPasskeyCredential}. */
export interface NewPasskeyOptions {
  rpId: string;
  /** The user handle, base64url; default 16 random bytes. */
  userHandle?: string;
}

/**
 * A new ES256 (ECDSA P-256 with SHA-256, COSE alg -7) credential: a random 16-byte id, the key
 * pair as base64url PKCS#8 / SPKI.
 *
 * @see https://www.w3.org/TR/webauthn-3/#sctn-alg-identifier
 * @example
 * const key = newPasskeyCredential({ rpId: 'app.example.com' });
 * key.private_key; // 'MIGHAgEAMBMGByqGSM49...'
 */
export function newPasskeyCredential(options: NewPasskeyOptions): PasskeyKeyMaterial {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    rp_id: options.rpId,
    id: randomBytes(16).toString('base64url'),
    user_handle: options.userHandle ?? randomBytes(16).toString('base64url'),
    private_key: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64url'),
    public_key: publicKey.export({ format: 'der', type: 'spki' }).toString('base64url'),
  };
}

/** Why a key does not parse; the text never quotes the key. */
export class PasskeyKeyError extends Error {
  override readonly name = 'PasskeyKeyError';
}

/**
 * The P-256 private key of a base64url PKCS#8 text (as Playwright and `multiauth passkey new` give
 * it).
 *
 * @throws PasskeyKeyError when the text is not base64url PKCS#8 DER of an EC P-256 key.
 * @example
 * const key = passkeyPrivateKey(user.passkey.private_key);
 */
export function passkeyPrivateKey(pkcs8: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: decodeBase64url(pkcs8, 'private_key'), format: 'der', type: 'pkcs8' });
  } catch (error) {
    if (error instanceof PasskeyKeyError) throw error;
    throw new PasskeyKeyError('private_key is not a PKCS#8 private key (DER, base64url)');
  }
  return checkP256(key, 'private_key');
}

/**
 * The P-256 public key of a base64url SPKI text.
 *
 * @throws PasskeyKeyError when the text is not base64url SPKI DER of an EC P-256 key.
 * @example
 * passkeyPublicKey(key.public_key).export({ format: 'jwk' });
 */
export function passkeyPublicKey(spki: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey({ key: decodeBase64url(spki, 'public_key'), format: 'der', type: 'spki' });
  } catch (error) {
    if (error instanceof PasskeyKeyError) throw error;
    throw new PasskeyKeyError('public_key is not an SPKI public key (DER, base64url)');
  }
  return checkP256(key, 'public_key');
}

function checkP256(key: KeyObject, field: string): KeyObject {
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new PasskeyKeyError(`${field} is a ${key.asymmetricKeyType ?? 'unknown'} key; passkeys here are ES256 (EC P-256)`);
  }
  return key;
}

/** Keys are a few hundred bytes; this refuses a pasted file long before it costs anything. */
const MAX_KEY_CHARS = 8192;

/**
 * The bytes of a base64url (or base64) text, refusing other characters (Node's decoder would skip them).
 *
 * @throws PasskeyKeyError naming `field` (never the value).
 * @example
 * decodeBase64url('AQID', 'id'); // <Buffer 01 02 03>
 */
export function decodeBase64url(text: string, field: string): Buffer {
  if (text.length === 0 || text.length > MAX_KEY_CHARS || !/^[A-Za-z0-9_+/-]+={0,2}$/.test(text)) {
    throw new PasskeyKeyError(`${field} is not base64url text`);
  }
  return Buffer.from(text, 'base64url');
}
