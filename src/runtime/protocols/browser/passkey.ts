import { createPrivateKey, createPublicKey } from 'node:crypto';
import type { BrowserContext } from 'playwright-core';
import { MultiAuthError } from '../../../core/errors.js';
import type { ConfigPath } from '../../../core/path.js';
import type { PasskeyCredential } from '../../session/passkey.js';

/** The first Playwright whose browser contexts have a virtual WebAuthn authenticator. */
export const PASSKEY_PLAYWRIGHT = '1.61';

/** Playwright's `context.credentials` (1.61+), typed by what this module calls. */
type Authenticator = BrowserContext['credentials'];

/** Who a passkey belongs to, for errors. */
export interface PasskeyOwner {
  user: string;
  /** The user's `passkey` in the config, for the error's location. */
  path?: ConfigPath;
}

/**
 * The context's virtual authenticator, or the one error a Playwright without it gets.
 *
 * @throws MultiAuthError `PASSKEY_UNSUPPORTED` naming the version needed.
 * @example
 * const credentials = authenticatorOf(context, { user: 'alice' });
 */
export function authenticatorOf(context: BrowserContext, owner: PasskeyOwner): Authenticator {
  const credentials = (context as Partial<Pick<BrowserContext, 'credentials'>>).credentials;
  if (credentials && typeof credentials.create === 'function' && typeof credentials.install === 'function') return credentials;
  throw new MultiAuthError('PASSKEY_UNSUPPORTED', `user "${owner.user}" has a passkey, and this Playwright has no virtual authenticator (context.credentials)`, {
    ...(owner.path ? { path: owner.path } : {}),
    context: { user: owner.user },
    hint: `Use Playwright ${PASSKEY_PLAYWRIGHT} or later: npm i -D @playwright/test@latest.`,
  });
}

/**
 * Installs the virtual authenticator into `context` and seeds `credential` (when there is one), before
 * any page of the context loads, so `navigator.credentials.get()` is answered with it, usernameless
 * or username-first (Playwright seeds discoverable credentials), and `create()` registers into it.
 *
 * @throws MultiAuthError `PASSKEY_UNSUPPORTED` (see {@link authenticatorOf}); `AUTH_PASSKEY` when the
 *   private key is not PKCS#8 or the public key not SPKI (the key itself is never quoted).
 * @example
 * await seedPasskey(context, passkeySeed(user, stored), { user: 'alice' });
 */
export async function seedPasskey(context: BrowserContext, credential: PasskeyCredential | undefined, owner: PasskeyOwner): Promise<void> {
  const authenticator = authenticatorOf(context, owner);
  if (credential) {
    checkKeys(credential, owner);
    const { rpId, id, userHandle, privateKey, publicKey, signCount } = credential;
    await authenticator.create(rpId, { id, userHandle, privateKey, publicKey, signCount });
  }
  await authenticator.install();
}

/**
 * The passkeys `context` holds now: the seeded one with its counter after the page's assertions,
 * and any the page registered (`navigator.credentials.create()`). Empty on a Playwright without
 * an authenticator.
 *
 * @example
 * const [registered] = (await heldPasskeys(context)).filter((c) => c.id !== seeded?.id);
 */
export async function heldPasskeys(context: BrowserContext): Promise<PasskeyCredential[]> {
  const credentials = (context as Partial<Pick<BrowserContext, 'credentials'>>).credentials;
  if (!credentials || typeof credentials.get !== 'function') return [];
  return (await credentials.get()).slice(0, 100);
}

/**
 * Whether `rpId` may be used on a page of `host` (WebAuthn: the RP ID is the page's effective
 * domain or a registrable suffix of it). Checked by hand on the hosts a failed sign-in visited: the
 * authenticator only says "no matching credential".
 *
 * @example
 * rpIdFits('example.test', 'login.example.test'); // true
 * rpIdFits('other.test', 'login.example.test'); // false
 */
export function rpIdFits(rpId: string, host: string): boolean {
  const id = rpId.toLowerCase();
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  return name === id || name.endsWith(`.${id}`);
}

/** Parses both keys the way the authenticator will, so a bad one fails here, named, and not as "no passkey answered". */
function checkKeys(credential: PasskeyCredential, owner: PasskeyOwner): void {
  const fail = (which: string, form: string): never => {
    throw new MultiAuthError('AUTH_PASSKEY', `the passkey's ${which} of user "${owner.user}" does not parse as ${form}`, {
      ...(owner.path ? { path: [...owner.path, which] } : {}),
      context: { user: owner.user },
      hint: `Give \`${which}\` as base64url ${form} (\`multiauth passkey new\` prints a pair), e.g. from \${NAME} in .env.`,
    });
  };
  try {
    createPrivateKey({ key: Buffer.from(credential.privateKey, 'base64url'), format: 'der', type: 'pkcs8' });
  } catch {
    fail('private_key', 'a PKCS#8 DER key');
  }
  try {
    createPublicKey({ key: Buffer.from(credential.publicKey, 'base64url'), format: 'der', type: 'spki' });
  } catch {
    fail('public_key', 'an SPKI DER key');
  }
}
