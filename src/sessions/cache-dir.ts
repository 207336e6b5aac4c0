import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { MultiAuthError } from '../core/errors.js';

/** The `.gitignore` written into the cache directory: nothing in it may ever be committed. */
const GITIGNORE = '# Written by playwright-multiauth: signed-in sessions are secrets.\n*\n';

/**
 * Creates the session cache directory (mode 0700) with a `.gitignore` that ignores everything in it,
 * so a cached token cannot be committed by accident.
 *
 * @example
 * ensureCacheDir('.auth');
 */
export function ensureCacheDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    const ignore = join(dir, '.gitignore');
    if (!existsSync(ignore)) writeFileSync(ignore, GITIGNORE, { mode: 0o600 });
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
