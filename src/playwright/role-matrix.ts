import { resolve } from 'node:path';
import { MultiAuthError } from '../core/errors.js';
import { findConfigFile, loadConfig } from '../config/index.js';
import { compile } from '../compile/index.js';
import { asUserFacingError } from './worker-auth.js';

/** Options of {@link authUsers} and {@link authProjects}. */
export interface RoleMatrixOptions {
  /** Config path (relative to the current directory); default MULTIAUTH_CONFIG, then ./multiauth.yaml or .json. */
  config?: string;
  /** Only these users, in this order (each must be declared). */
  users?: string[];
}

function configPath(options: RoleMatrixOptions): string {
  const given = options.config ?? process.env.MULTIAUTH_CONFIG;
  const file = given ? resolve(given) : findConfigFile(process.cwd());
  if (!file) {
    throw new MultiAuthError('CONFIG_NOT_FOUND', `no multiauth.yaml or multiauth.json in ${process.cwd()}`, {
      hint: "Pass the path: authProjects(project, { config: 'path/to/multiauth.yaml' }).",
    });
  }
  return file;
}

/**
 * The names of the configured users, synchronously, for loops that declare one describe per user.
 *
 * @example
 * for (const user of authUsers()) {
 *   test.describe(user, () => {
 *     test.use({ authUser: user });
 *     test('can open the dashboard', async ({ page }) => { await page.goto('/'); });
 *   });
 * }
 */
export function authUsers(options: RoleMatrixOptions = {}): string[] {
  try {
    const names = compile(loadConfig(configPath(options)).config).users.map((u) => u.name);
    if (!options.users) return names;
    const unknown = options.users.filter((u) => !names.includes(u));
    if (unknown.length) {
      throw new MultiAuthError('USER_UNKNOWN', `unknown user${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `"${u}"`).join(', ')}`, {
        hint: `Configured users: ${names.join(', ')}.`,
      });
    }
    return [...options.users];
  } catch (error) {
    throw asUserFacingError(error);
  }
}

/**
 * One Playwright project per configured user (named `<project name>-<user>`, or the user's name),
 * each running the same specs as that user: a role matrix in `playwright.config.ts`.
 *
 * @example
 * export default defineConfig({
 *   projects: authProjects({ name: 'api', testMatch: /api\/.*\.spec\.ts/ }, { users: ['admin', 'viewer'] }),
 * });
 */
export function authProjects<P extends { name?: string; use?: object }>(project: P, options: RoleMatrixOptions = {}): P[] {
  const config = configPath(options);
  return authUsers({ ...options, config }).map((user) => ({
    ...project,
    name: project.name ? `${project.name}-${user}` : user,
    use: { ...project.use, authUser: user, authConfig: config },
  }));
}
