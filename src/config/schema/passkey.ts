import { z } from 'zod';

/**
 * A passkey (WebAuthn credential) of a user, in the shape Playwright's `context.credentials.create`
 * takes (issue 28): base64url strings, the private key PKCS#8 DER, the public key SPKI DER. Bounded
 * lengths: a P-256 PKCS#8 key is ~190 characters, an RSA-4096 one under 3,200.
 */
const Base64url = (what: string, max: number) =>
  // refine, not regex: the config's issue text shows a refinement's own message.
  z.string().min(1).max(max).refine((text) => /^[A-Za-z0-9_-]+={0,2}$/.test(text), { message: `expected ${what} as base64url (A-Z a-z 0-9 - _)` });

/** A passkey written out in full: what a relying party already enrolled for the user. */
export const PasskeyCredential = z.strictObject({
  rp_id: z.string().min(1).max(253).describe('The relying party id the credential belongs to: the site\'s domain (app.example.test), without scheme or port.'),
  id: Base64url('the credential id', 1024).describe('The credential id, base64url, as the relying party stored it.'),
  user_handle: Base64url('the user handle', 128).describe('The user handle (WebAuthn user.id), base64url, as the relying party stored it.'),
  private_key: Base64url('the private key', 4096).describe('The credential\'s private key: PKCS#8 DER, base64url. A secret: write "${NAME}" and keep it in .env.'),
  public_key: Base64url('the public key', 2048).describe('The credential\'s public key: SPKI DER, base64url.'),
  sign_count: z.int().min(0).max(0xffffffff).optional()
    .describe('The signature counter the relying party last saw; default 0. The first assertion carries sign_count + 1; later runs continue from the store.'),
});
export type PasskeyCredential = z.infer<typeof PasskeyCredential>;

/**
 * `passkey` on a user whose sign-in or tests run in a browser: a credential seeded into every
 * browser context of the user, or `register`: the credential the app's own "create a passkey" flow
 * registers during the sign-in is kept with the session and used by later sign-ins.
 */
export const PasskeySetting = z.union([z.literal('register'), PasskeyCredential]);
export type PasskeySetting = z.infer<typeof PasskeySetting>;

/** The description of `passkey` where a user may have one. */
export const PASSKEY_HERE = 'A passkey seeded into every browser context of the user (Playwright >= 1.61): {rp_id, id, user_handle, private_key, public_key, sign_count}, ' +
  'or "register": keep the passkey the app registers during the sign-in and use it next time.';
