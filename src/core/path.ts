/** A location inside a parsed config document: keys and list indexes from the root. */
export type ConfigPath = ReadonlyArray<string | number>;

/**
 * Renders a config path the way users read it in errors.
 *
 * @example
 * formatPath(['presets', 2, 'users', 0, 'password']); // 'presets[2].users[0].password'
 */
export function formatPath(path: ConfigPath): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(key)) out += out ? `.${key}` : key;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out || '(root)';
}
