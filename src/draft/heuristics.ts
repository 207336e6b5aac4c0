/**
 * The drafter's judgements about names and values, one table each, so that adding a spelling an
 * application uses is one line.
 */

/** Field names that hold a password (form fields, JSON keys, GraphQL variables). */
const PASSWORD_NAMES = /^(pass|password|passwd|passphrase|pwd|pw|j_password|user_?pass(word)?|login_?password|current-password)$|password$/i;

/** Field names that hold the login (user name or e-mail). */
const USERNAME_NAMES = /^(user|username|user_?name|login|log|email|e-?mail|j_username|identifier|account|userid|user_?id|uname)$|(username|email|login)$/i;

/** The same names written exactly, without a prefix: preferred to one that only ends like one (`user_login`). */
const PLAIN_USERNAME_NAMES = /^(user|username|user_?name|login|log|email|e-?mail|j_username|identifier|account|userid|user_?id|uname)$/i;

/** Names of "remember me" and "stay signed in" boxes: `autologin` ends like a login field but holds a flag. */
const REMEMBER_NAMES = /^(auto_?login|remember(_?me|_?login)?|keep_?(me_?)?(logged_?in|signed_?in|login)|stay_?(logged_?in|signed_?in)|persist(ent)?(_?login)?|rememberme)$/i;

/** Values a checkbox or a switch sends: a flag, never a login. */
const FLAG_VALUES = /^(1|0|on|off|true|false|yes|no|forever|y|n|checked)$/i;

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
  return USERNAME_NAMES.test(name) && !REMEMBER_NAMES.test(name);
}

/**
 * Whether a field name is one of the login's plain names (`username`, `log`), not one that only
 * ends like one.
 *
 * @example
 * isPlainUsernameName('user_login'); // false
 */
export function isPlainUsernameName(name: string): boolean {
  return PLAIN_USERNAME_NAMES.test(name);
}

/**
 * Whether a value is what a checkbox or a switch sends (`1`, `on`, `true`, `forever`): a field
 * holding one is not the login, whatever its name.
 *
 * @example
 * isFlagValue('1'); // true
 */
export function isFlagValue(value: string): boolean {
  return FLAG_VALUES.test(value);
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

/**
 * Whether a value is a page's address (an absolute http(s) URL, or a path), with nothing in its
 * query that looks like a key: a redirect target a login form sends back (`redirect_to`,
 * `back_url`), never a secret even when an earlier answer gave it.
 *
 * @example
 * isAddress('http://127.0.0.1:8080/wp-admin/'); // true
 */
export function isAddress(value: string): boolean {
  if (value.length > 2048 || /\s/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value, 'http://relative.invalid');
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (!/^(https?:\/\/|\/(?!\/))/i.test(value)) return false;
  if (url.username || url.password) return false;
  return [...url.searchParams].every(([, v]) => !looksSecret(v)) && !looksSecret(url.hash.slice(1));
}
