import type { PlanUser } from '../../compile/index.js';

/**
 * A passkey as Playwright's virtual authenticator holds it (`context.credentials.get()`): base64url
 * strings, the private key PKCS#8 DER, the public key SPKI DER, and the signature counter of the
 * last assertion.
 */
export interface PasskeyCredential {
  rpId: string;
  id: string;
  userHandle: string;
  privateKey: string;
  publicKey: string;
  signCount: number;
}

/**
 * What a session and the store keep of a user's passkey: its last counter, and for a passkey the
 * app registered (`passkey: register`) the whole credential. A seeded passkey's private key stays
 * in the config alone: the store never holds a copy of it.
 */
export type StoredPasskey = Omit<PasskeyCredential, 'privateKey'> & { privateKey?: string };

/**
 * The credential to seed into a browser context of `user`: the config's passkey continuing from the
 * stored counter (when the store's is the same credential and further on), or, for `passkey:
 * register`, the credential captured by an earlier sign-in. Undefined when there is none (a user
 * without a passkey, or one that has not registered yet).
 *
 * @example
 * passkeySeed(plan.users[0], { ...stored, signCount: 7 })?.signCount; // 7: the first assertion carries 8
 */
export function passkeySeed(user: PlanUser, stored: StoredPasskey | undefined): PasskeyCredential | undefined {
  const passkey = user.passkey;
  if (!passkey) return undefined;
  if (passkey.kind === 'register') {
    return stored?.privateKey === undefined ? undefined : { ...stored, privateKey: stored.privateKey };
  }
  const { rpId, id, userHandle, privateKey, publicKey } = passkey;
  const same = stored !== undefined && stored.id === id && stored.rpId === rpId;
  return { rpId, id, userHandle, privateKey, publicKey, signCount: same ? Math.max(passkey.signCount, stored.signCount) : passkey.signCount };
}

/**
 * What the session and the store keep of `credential` for `user` ({@link StoredPasskey}): a seeded
 * passkey without its private key, a registered one whole.
 *
 * @example
 * storablePasskey(seededUser, credential).privateKey; // undefined
 */
export function storablePasskey(user: PlanUser, credential: PasskeyCredential): StoredPasskey {
  if (user.passkey?.kind === 'register') return { ...credential };
  const { privateKey: _config, ...rest } = credential;
  return rest;
}
