import { encodeCBOR } from '@levischuck/tiny-cbor';
import type { KeyObject } from 'node:crypto';

/** The forms servers store a passkey's public key in. */
export interface PublicKeyForms {
  /** RFC 9052 `COSE_Key` (EC2, P-256, ES256) as CBOR, base64url: what WebAuthn registration hands a server. */
  cose: string;
  /** RFC 7517 JWK (`kty: EC`, `crv: P-256`, `x`, `y`). */
  jwk: { kty: 'EC'; crv: 'P-256'; x: string; y: string };
  /** SPKI DER, base64url. */
  spki: string;
}

/** COSE labels (RFC 9052 §7, RFC 9053 §7.1.1): kty, alg, crv, x, y; EC2 = 2, ES256 = -7, P-256 = 1. */
const COSE_KTY = 1;
const COSE_ALG = 3;
const COSE_EC2_CRV = -1;
const COSE_EC2_X = -2;
const COSE_EC2_Y = -3;
const KTY_EC2 = 2;
const ALG_ES256 = -7;
const CRV_P256 = 1;

/**
 * The COSE, JWK and SPKI forms of a P-256 public key.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9053#section-7.1.1
 * @example
 * publicKeyForms(passkeyPublicKey(key.public_key)).cose; // 'pQECAyYgASFYI...'
 */
export function publicKeyForms(publicKey: KeyObject): PublicKeyForms {
  const jwk = publicKey.export({ format: 'jwk' });
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || !jwk.x || !jwk.y) throw new Error('publicKeyForms: not an EC P-256 public key');
  const coseKey = new Map<number, number | Uint8Array>([
    [COSE_KTY, KTY_EC2],
    [COSE_ALG, ALG_ES256],
    [COSE_EC2_CRV, CRV_P256],
    [COSE_EC2_X, new Uint8Array(Buffer.from(jwk.x, 'base64url'))],
    [COSE_EC2_Y, new Uint8Array(Buffer.from(jwk.y, 'base64url'))],
  ]);
  return {
    cose: Buffer.from(encodeCBOR(coseKey)).toString('base64url'),
    jwk: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y },
    spki: publicKey.export({ format: 'der', type: 'spki' }).toString('base64url'),
  };
}
