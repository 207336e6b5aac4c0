/**
 * Names the drafter makes up: template variables from where a value came from, and environment
 * variable names from the user's name.
 */

/**
 * A template variable name from a key (`data.auth.access_token` -> `access_token`), not yet in
 * `taken` (`_2`, `_3`... appended), and added to it.
 *
 * @example
 * variableName('data.auth.access_token', new Set()); // 'access_token'
 */
export function variableName(key: string, taken: Set<string>): string {
  const leaf = key.split(/[.[\]]+/).filter((part) => part && !/^\d+$/.test(part)).at(-1) ?? 'value';
  let base = leaf.replace(/[^A-Za-z0-9_]/g, '_').replace(/^(\d)/, '_$1').toLowerCase() || 'value';
  // The sign-in's own values keep their names.
  if (base === 'username' || base === 'password') base = `${base}_value`;
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
  taken.add(name);
  return name;
}

/**
 * An environment variable name: upper case, letters, digits and `_`, not starting with a digit.
 *
 * @example
 * envName('alice@example.test', 'password'); // 'ALICE_EXAMPLE_TEST_PASSWORD'
 */
export function envName(...parts: string[]): string {
  const name = parts
    .map((part) => part.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '').toUpperCase())
    .filter(Boolean)
    .join('_')
    .slice(0, 100);
  return /^[0-9]/.test(name) ? `U_${name}` : name || 'SECRET';
}
