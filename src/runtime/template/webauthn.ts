import { MultiAuthError } from '../../core/errors.js';
import { PasskeyKeyError, readAssertionRequest, signAssertion, WebAuthnOptionsError, type PasskeyKeyMaterial } from '../../core/webauthn/index.js';

/** What `webauthn_assertion()` signs with: the user's passkey and the counter of the sign-in. */
export interface WebAuthnSigner {
  /**
   * The credential to sign with now; `unregistered` for `passkey: register` before a browser
   * sign-in registered one.
   */
  credential(): Pick<PasskeyKeyMaterial, 'rp_id' | 'id' | 'user_handle' | 'private_key'> | 'unregistered';
  /**
   * The counter the next assertion carries: one more than the last one the relying party saw
   * (`sign_count`, or what the session store kept), so a strict relying party sees it grow.
   */
  nextCounter(): number;
}

/**
 * `webauthn_assertion(options[, origin])`: the assertion (`id`, `rawId`, `type`, `response: {
 * clientDataJSON, authenticatorData, signature, userHandle }`) as a JSON text, signed with the
 * user's passkey for the server's request options (a JSON text, wrapped in `publicKey` or not).
 * `origin` defaults to `requestOrigin`, the origin of the request the template is in.
 *
 * @throws MultiAuthError `AUTH_PASSKEY` when the passkey itself is wrong for the sign-in (the options ask
 *   for another rp id, or the key does not parse), as a browser sign-in with that passkey fails.
 * @throws MultiAuthError `TEMPLATE_FUNCTION_FAILED` when the user has no passkey to sign with, the
 *   options have no challenge or list other credentials, or the origin is unknown or not a URL. The
 *   message names ids and rp ids, never the key.
 * @see https://www.w3.org/TR/webauthn-3/#sctn-getAssertion
 * @example
 * webauthnAssertion(['{"challenge":"Q0g","rpId":"app.test"}'], signer, 'https://app.test');
 * // '{"id":"…","rawId":"…","type":"public-key","response":{…}}'
 */
export function webauthnAssertion(args: readonly string[], signer: WebAuthnSigner | undefined, requestOrigin: string | undefined): string {
  if (signer === undefined) {
    throw failed('the user has no passkey', 'Give the user a passkey: {rp_id, id, user_handle, private_key, public_key} (multiauth passkey new makes one); see docs/passkeys.md "HTTP-only".');
  }
  const key = signer.credential();
  if (key === 'unregistered') {
    throw failed('the user\'s passkey is "register" and no browser sign-in has registered it yet', 'Write the passkey out in the config (multiauth passkey new) for sign-ins without a browser; see docs/passkeys.md "HTTP-only".');
  }
  let request;
  try {
    request = readAssertionRequest(args[0]);
  } catch (error) {
    if (!(error instanceof WebAuthnOptionsError)) throw error;
    throw failed(error.message, 'Give webauthn_assertion() the variable that holds the server\'s options (extract the options response\'s body, or its publicKey), see docs/passkeys.md "HTTP-only".');
  }
  if (request.rpId !== undefined && request.rpId !== key.rp_id) {
    throw passkeyMistake(`the server asks for a passkey of rp id "${request.rpId}"; the user's passkey is for "${key.rp_id}"`, 'Set the passkey\'s rp_id to the relying party\'s id (the site\'s host name), or enrol a passkey made for it (multiauth passkey new --rp-id ID).');
  }
  if (request.allowCredentials.length > 0 && !request.allowCredentials.includes(key.id)) {
    throw failed(
      `the server's allowCredentials (${request.allowCredentials.length}) does not list the user's passkey id "${key.id}"`,
      'Enrol this passkey for the user in the relying party (its public key: multiauth passkey new prints it), or check the passkey id and the username the options were asked for.',
    );
  }
  const origin = originOf(args[1] ?? requestOrigin);
  try {
    return JSON.stringify(signAssertion({ key, challenge: request.challenge, origin, counter: signer.nextCounter() }));
  } catch (error) {
    if (!(error instanceof PasskeyKeyError)) throw error;
    throw passkeyMistake(`the user's passkey: ${error.message}`, 'Give the passkey as multiauth passkey new prints it: PKCS#8 (private_key) and ids in base64url, an EC P-256 key.');
  }
}

function originOf(text: string | undefined): string {
  if (text === undefined) {
    throw failed('no origin: it is used outside a request', 'Give the origin the relying party expects: webauthn_assertion(options, \'https://app.example.com\').');
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw failed('its origin is not a URL', 'Give the origin as scheme://host[:port], e.g. \'https://app.example.com\'.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw failed(`its origin has the scheme ${url.protocol}; an origin is http: or https:`, 'Give the origin as scheme://host[:port].');
  return url.origin;
}

// The same mistake in the passkey is one error whichever way the user signs in (docs/errors.md AUTH_PASSKEY).
function passkeyMistake(why: string, hint: string): MultiAuthError {
  return new MultiAuthError('AUTH_PASSKEY', `webauthn_assertion(): ${why}`, { hint });
}

function failed(why: string, hint: string): MultiAuthError {
  return new MultiAuthError('TEMPLATE_FUNCTION_FAILED', `webauthn_assertion(): ${why}`, { hint });
}
