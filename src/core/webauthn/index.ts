/**
 * WebAuthn as an authenticator does it, without a browser: new ES256 credentials, their public key
 * in the forms servers store (`cose.ts`, which loads a CBOR library: import it from there only where
 * a COSE key is made), and assertions signed for a server's request options.
 */
export { newPasskeyCredential, passkeyPrivateKey, passkeyPublicKey, decodeBase64url, PasskeyKeyError, type PasskeyKeyMaterial, type NewPasskeyOptions } from './credential.js';
export { signAssertion, type AssertionInput, type AssertionJson } from './assertion.js';
export { readAssertionRequest, WebAuthnOptionsError, type AssertionRequest } from './request-options.js';
