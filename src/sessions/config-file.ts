import { isAbsolute, resolve } from 'node:path';
import { MultiAuthError } from '../core/errors.js';
import { CONFIG_FILE_NAMES, findConfigFile } from '../core/config-file.js';

/** Where {@link configFile} looks: a subset of `OpenConfigOptions`. */
export interface ConfigFileOptions {
  /** The config file the user named, relative to `baseDir` unless absolute; undefined: look in `baseDir`. */
  file?: string;
  /** The Playwright config's folder inside Playwright, the current folder in the CLI. */
  baseDir: string;
  /** The "Recommended fix" when no config is found. */
  notFoundHint: string;
}

/**
 * The config file {@link openConfig} reads: the one named (made absolute against `baseDir`), else
 * the first of `multiauth.yaml`, `multiauth.yml`, `multiauth.json` in `baseDir`.
 *
 * @throws MultiAuthError `CONFIG_NOT_FOUND` naming the three names, with `notFoundHint`.
 * @example
 * configFile({ baseDir: '/repo', env: {}, notFoundHint: '...' }); // '/repo/multiauth.yaml'
 */
export function configFile(options: ConfigFileOptions): string {
  const { file, baseDir } = options;
  if (file) return isAbsolute(file) ? file : resolve(baseDir, file);
  const found = findConfigFile(baseDir);
  if (found) return found;
  const names = CONFIG_FILE_NAMES.slice(0, -1).join(', ');
  throw new MultiAuthError('CONFIG_NOT_FOUND', `no ${names} or ${CONFIG_FILE_NAMES.at(-1)} in ${baseDir}`, {
    hint: options.notFoundHint,
  });
}
