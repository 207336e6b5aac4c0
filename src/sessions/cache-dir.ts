import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { MultiAuthError } from '../core/errors.js';
import { writeFileAtomically } from '../core/regular-file.js';

/** The `.gitignore` written into the cache directory: nothing in it may ever be committed. */
const GITIGNORE = '# Written by playwright-multiauth: signed-in sessions are secrets.\n*\n';

/**
 * Creates the session cache directory (mode 0700; an existing one keeps its mode) with a
 * `.gitignore` that ignores everything in it, so a cached token cannot be committed by accident.
 *
 * @example
 * ensureCacheDir('.auth');
 */
export function ensureCacheDir(dir: string): void {
  try {
    // Only a directory made here is made private: an existing one (a shared 1777 folder given as
    // MULTIAUTH_CACHE_DIR or --out) keeps the mode its owner gave it.
    if (mkdirSync(dir, { recursive: true, mode: 0o700 }) !== undefined) chmodSync(dir, 0o700);
    const ignore = join(dir, '.gitignore');
    // A link planted in place of .gitignore (dangling or not) is replaced, never written through.
    if (needsGitignore(ignore)) writeFileAtomically(ignore, GITIGNORE);
  } catch (cause) {
    throw new MultiAuthError('SESSION_CACHE', `cannot create the session cache directory ${dir}`, {
      cause,
      hint: 'Make the directory writable, or point MULTIAUTH_CACHE_DIR at one that is.',
    });
  }
}

/**
 * The session cache directory of a config: `MULTIAUTH_CACHE_DIR` (relative to `baseDir`, the
 * Playwright config's folder), else `.auth/` beside the config file.
 *
 * @example
 * cacheDirFor('/repo/multiauth.yaml', process.env, '/repo'); // '/repo/.auth'
 */
export function cacheDirFor(configFile: string, env: Record<string, string | undefined>, baseDir: string): string {
  const dir = env.MULTIAUTH_CACHE_DIR;
  if (dir) return isAbsolute(dir) ? dir : resolve(baseDir, dir);
  return resolve(dirname(configFile), '.auth');
}

/** Missing, or something a file must replace (a link, a FIFO); a file or folder of the user's stays. */
function needsGitignore(path: string): boolean {
  try {
    const stat = lstatSync(path);
    return !stat.isFile() && !stat.isDirectory();
  } catch {
    return true;
  }
}
