import { statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { MultiAuthError } from '../core/errors.js';
import { CONFIG_FILE_NAMES, findConfigFile } from '../core/config-file.js';

/** Where {@link configFile} looks: a subset of `OpenConfigOptions`. */
export interface ConfigFileOptions {
  /**
   * The config file the user named, relative to `baseDir` unless absolute; a directory means the
   * config in it. Undefined: look in `baseDir`.
   */
  file?: string;
  /** The Playwright config's folder inside Playwright, the current folder in the CLI. */
  baseDir: string;
  /** The "Recommended fix" when no config is found. */
  notFoundHint: string;
  /**
   * The "Recommended fix" when none is in `baseDir` but one is in a parent folder (`found`,
   * absolute): how this caller's user names that one. Default `notFoundHint`.
   */
  foundAboveHint?: (found: string) => string;
}

/** How many parent folders are looked in for a config, to name it when the current one has none. */
const MAX_PARENT_LEVELS = 32;

/**
 * The config file {@link openConfig} reads: the one named (made absolute against `baseDir`; for a
 * directory, the config in it), else the first of `multiauth.yaml`, `multiauth.yml`,
 * `multiauth.json` in `baseDir`.
 *
 * @throws MultiAuthError `CONFIG_NOT_FOUND` naming the three names, with `notFoundHint`; when a
 *   parent folder of `baseDir` holds a config, the error names it.
 * @example
 * configFile({ baseDir: '/repo', env: {}, notFoundHint: '...' }); // '/repo/multiauth.yaml'
 */
export function configFile(options: ConfigFileOptions): string {
  const { file, baseDir } = options;
  if (file) {
    const path = isAbsolute(file) ? file : resolve(baseDir, file);
    if (!isDirectory(path)) return path;
    // `-c DIR` (or a folder as `authConfig`): the config in it, as if run from there.
    return findConfigFile(path) ?? notFound(path, options, false);
  }
  return findConfigFile(baseDir) ?? notFound(baseDir, options, true);
}

function notFound(dir: string, options: ConfigFileOptions, lookAbove: boolean): never {
  const names = `${CONFIG_FILE_NAMES.slice(0, -1).join(', ')} or ${CONFIG_FILE_NAMES.at(-1)}`;
  const above = lookAbove ? inParentFolder(dir) : undefined;
  throw new MultiAuthError('CONFIG_NOT_FOUND', `no ${names} in ${dir}`, {
    ...(above ? { details: [`there is one in a parent folder: ${above}`] } : {}),
    hint: above && options.foundAboveHint ? options.foundAboveHint(above) : options.notFoundHint,
  });
}

/** The config of the nearest parent folder that has one, within {@link MAX_PARENT_LEVELS}. */
function inParentFolder(dir: string): string | undefined {
  let current = dir;
  for (let level = 0; level < MAX_PARENT_LEVELS; level++) {
    const parent = dirname(current);
    if (parent === current) return undefined;
    const found = findConfigFile(parent);
    if (found) return found;
    current = parent;
  }
  return undefined;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
