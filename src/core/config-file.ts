import { existsSync } from 'node:fs';
import { join } from 'node:path';

// Finding the file is all a worker with cached sessions needs of the config layer, so it lives
// here, apart from the loader (yaml, zod).

/** File names {@link findConfigFile} looks for, in order. */
export const CONFIG_FILE_NAMES = ['multiauth.yaml', 'multiauth.yml', 'multiauth.json'] as const;

/**
 * The config file of a directory: `multiauth.yaml`, then `multiauth.yml`, then `multiauth.json`.
 *
 * @example
 * findConfigFile(process.cwd()); // '/repo/multiauth.yaml', or undefined when there is none
 */
export function findConfigFile(cwd: string): string | undefined {
  return CONFIG_FILE_NAMES.map((name) => join(cwd, name)).find((path) => existsSync(path));
}
