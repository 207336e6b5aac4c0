/**
 * The drafter's judgements about names and values, one table each, so that adding a spelling an
 * application uses is one line.
 */

/** Field names that hold a password (form fields, JSON keys, GraphQL variables). */
const PASSWORD_NAMES = /^(pass|password|passwd|passphrase|pwd|pw|j_password|user_?pass(word)?|login_?password|current-password)$|password$/i;

/** Field names that hold the login (user name or e-mail). */
const USERNAME_NAMES = /^(user|username|user_?name|login|log|email|e-?mail|j_username|identifier|account|userid|user_?id|uname)$|(username|email|login)$/i;

/** Field names of one-time codes: their recorded values are spent, never replayed. */
const OTP_NAMES = /^(otp|totp|mfa|2fa|code|token_?code|one_?time_?code|verification_?code|authcode)$/i;

/** Request headers every client sends by itself: never a credential, never copied into a draft. */
const TRANSPORT_HEADERS = new Set([
  'host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'accept-encoding', 'accept-language', 'user-agent',
  'referer', 'origin', 'cookie', 'cache-control', 'pragma', 'upgrade-insecure-requests', 'te', 'priority', 'dnt', 'if-none-match',
  'if-modified-since', 'purpose', 'sec-purpose', 'content-type', 'accept',
]);

/** Authorization schemes written as a prefix of the value (`Bearer x`). */
const AUTH_SCHEMES = /^(Bearer|Token|JWT|Basic|Digest|ApiKey|Api-Key|DPoP)\s+/i;

/**
 * Whether a field name holds a password.
 *
 * @example
 * isPasswordName('password'); // true
 */
export function isPasswordName(name: string): boolean {
  return PASSWORD_NAMES.test(name) && !/^(confirm|new|forgot|reset)/i.test(name);
}

/**
 * Whether a field name holds the login.
 *
 * @example
 * isUsernameName('email'); // true
 */
export function isUsernameName(name: string): boolean {
  return USERNAME_NAMES.test(name);
}

/**
 * Whether a field name holds a one-time code.
 *
 * @example
 * isOtpName('otp'); // true
 */
export function isOtpName(name: string): boolean {
  return OTP_NAMES.test(name);
}

/**
 * Whether a request header is one the client sends by itself (not a credential).
 *
 * @example
 * isTransportHeader('User-Agent'); // true
 */
export function isTransportHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return TRANSPORT_HEADERS.has(lower) || lower.startsWith('sec-') || lower.startsWith(':');
}

/**
 * A header value split into its scheme prefix and the value after it.
 *
 * @example
 * splitScheme('Bearer abc'); // { prefix: 'Bearer', value: 'abc' }
 */
export function splitScheme(value: string): { prefix?: string; value: string } {
  const match = AUTH_SCHEMES.exec(value);
  return match ? { prefix: match[1]!, value: value.slice(match[0].length) } : { value };
}

/**
 * Whether a value is distinctive enough that finding it again elsewhere in the recording means
 * it was copied, not a coincidence (`/app`, `en` or `true` appear everywhere).
 *
 * @example
 * isDistinctive('a8f3c2d19e'); // true
 */
export function isDistinctive(value: string): boolean {
  if (value.length >= 20) return true;
  return value.length >= 8 && /\d/.test(value) && /[A-Za-z]/.test(value);
}

/**
 * Whether a value that nobody asked for looks like a key or token (long, without spaces, letters
 * and digits): such a value is never copied into a draft, it becomes a `${NAME}`.
 *
 * @example
 * looksSecret('9f8e7d6c5b4a39281706f5e4d3c2b1a0'); // true
 */
export function looksSecret(value: string): boolean {
  return value.length >= 16 && !/\s/.test(value) && /\d/.test(value) && /[A-Za-z]/.test(value);
}
