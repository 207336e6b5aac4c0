/**
 * Names (variables, query parameters, headers) whose values identify rather than authenticate:
 * `username`, `email`, `tenant`, `client_id`. Everything else a sign-in holds is treated as secret.
 */
const IDENTIFYING_NAME = /^(?:user(?:name)?|login|e-?mail(?:_?address)?|name|tenant|org(?:anization)?|role|scope|scopes|region|locale|lang(?:uage)?|client_?id)$|-role$|-tenant$/i;

/**
 * Whether a value under `name` identifies (and is shown) rather than authenticates (and is masked).
 * Shared by the plan's secrets (compile) and the values templates derive (runtime).
 *
 * @example
 * isIdentifyingName('username'); // true
 * isIdentifyingName('totp_secret'); // false
 */
export function isIdentifyingName(name: string): boolean {
  return IDENTIFYING_NAME.test(name);
}
