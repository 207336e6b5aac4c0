/** What an assertion needs from a server's `PublicKeyCredentialRequestOptions` (JSON form). */
export interface AssertionRequest {
  /** base64url, as the server sent it. */
  challenge: string;
  rpId?: string;
  /** Credential ids the server accepts; empty = any discoverable credential (usernameless). */
  allowCredentials: string[];
}

/** Why options cannot be answered; the text names fields, never values. */
export class WebAuthnOptionsError extends Error {
  override readonly name = 'WebAuthnOptionsError';
}

/** Options are a few hundred bytes; a whole page given by mistake is refused before parsing. */
const MAX_OPTIONS_CHARS = 256 * 1024;
/** Real servers list a handful; the bound keeps a hostile answer cheap. */
const MAX_ALLOW_CREDENTIALS = 1000;

/**
 * Reads request options as servers send them: a JSON text or an object, the options themselves or
 * wrapped in `{ publicKey: … }` (`navigator.credentials.get()`'s argument, as some servers send it).
 *
 * @throws WebAuthnOptionsError when the value is not JSON, has no string `challenge`, or has an
 *   `rpId` or `allowCredentials` of the wrong shape.
 * @see https://www.w3.org/TR/webauthn-3/#dictdef-publickeycredentialrequestoptionsjson
 * @example
 * readAssertionRequest('{"publicKey":{"challenge":"AbC","rpId":"example.com","allowCredentials":[]}}');
 * // { challenge: 'AbC', rpId: 'example.com', allowCredentials: [] }
 */
export function readAssertionRequest(value: unknown): AssertionRequest {
  let options = value;
  if (typeof options === 'string') {
    if (options.length > MAX_OPTIONS_CHARS) throw new WebAuthnOptionsError(`the options are ${options.length} characters long, more than the ${MAX_OPTIONS_CHARS} expected`);
    try {
      options = JSON.parse(options) as unknown;
    } catch {
      throw new WebAuthnOptionsError('the options are not JSON (give the variable holding the server\'s options, as it sent them)');
    }
  }
  if (isObject(options) && isObject(options.publicKey)) options = options.publicKey;
  if (!isObject(options)) throw new WebAuthnOptionsError('the options are not a JSON object');
  const { challenge, rpId, allowCredentials = [] } = options;
  if (typeof challenge !== 'string' || challenge === '') throw new WebAuthnOptionsError('the options have no challenge (a base64url string)');
  if (rpId !== undefined && typeof rpId !== 'string') throw new WebAuthnOptionsError('the options\' rpId is not a string');
  if (!Array.isArray(allowCredentials) || allowCredentials.length > MAX_ALLOW_CREDENTIALS) {
    throw new WebAuthnOptionsError(`the options' allowCredentials is not a list (of at most ${MAX_ALLOW_CREDENTIALS})`);
  }
  const ids = allowCredentials.map((item: unknown) => (isObject(item) && typeof item.id === 'string' ? item.id : undefined));
  if (ids.some((id) => id === undefined)) throw new WebAuthnOptionsError('an item of the options\' allowCredentials has no string id');
  return { challenge, ...(rpId !== undefined && { rpId }), allowCredentials: ids as string[] };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
