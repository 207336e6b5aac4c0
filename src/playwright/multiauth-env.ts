import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { MultiAuthError } from '../core/errors.js';
import { environmentFor } from '../core/dotenv.js';
import { configFile } from '../sessions/index.js';
import { playwrightConfigDir } from './config-dir.js';
import { toSpecError } from './spec-error.js';

/** Options of {@link multiauthEnv}. */
export interface MultiAuthEnvOptions {
  /** Config path, relative to the Playwright config's folder; default as {@link authUsers}'. */
  config?: string;
}

/**
 * The environment the config's `${NAME}` references see, for `playwright.config.ts`: the real
 * environment, plus the `.env` file beside `multiauth.yaml` for the names the real environment does
 * not set (the same file, read by the same code, as the config's). Nothing is written into
 * `process.env`. So `baseURL` and the config's URLs come from one value.
 *
 * Paths resolve as {@link authUsers}' do: from the folder of the Playwright config that calls it.
 *
 * @throws MultiAuthError `CONFIG_NOT_FOUND` when there is no config (or the one named is missing); `CONFIG_LIMIT` when `.env`
 *   is not a regular file of at most 8 MiB.
 * @example
 * // playwright.config.ts, with BASE_URL=http://localhost:3000 in .env beside multiauth.yaml
 * const env = multiauthEnv();
 * export default defineConfig({ use: { baseURL: env.BASE_URL } });
 */
export function multiauthEnv(options: MultiAuthEnvOptions = {}): Readonly<Record<string, string | undefined>> {
  try {
    const hint = "Create multiauth.yaml beside playwright.config.ts, or pass the path: multiauthEnv({ config: 'path/to/multiauth.yaml' }), or set MULTIAUTH_CONFIG.";
    const file = configFile({ file: options.config ?? process.env.MULTIAUTH_CONFIG, baseDir: playwrightConfigDir(), notFoundHint: hint });
    // A mistyped path would otherwise read no .env and leave baseURL unset without a word.
    if (!existsSync(file)) throw new MultiAuthError('CONFIG_NOT_FOUND', `no config file ${file}`, { hint });
    return Object.freeze({ ...environmentFor(dirname(file), process.env) });
  } catch (error) {
    throw toSpecError(error);
  }
}
