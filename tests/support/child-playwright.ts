import { join } from 'node:path';
import { ROOT } from './root.js';

/** Playwright Test's command line script, to run `node PLAYWRIGHT_CLI test ...` in a child. */
export const PLAYWRIGHT_CLI = join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');

/**
 * `env` without the variables this Playwright runner sets for its own workers (PLAYWRIGHT_*,
 * TEST_*, FORCE_COLOR), which would otherwise steer a child `playwright test` run, nor the outer
 * run's file-times settings (MULTIAUTH_FILE_*: a child's one-file report would overwrite the
 * run's); unset names are left out too.
 *
 * @example
 * const env = { ...withoutRunnerVariables(process.env), CI: '' };
 */
export function withoutRunnerVariables(env: NodeJS.ProcessEnv): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !name.startsWith('PLAYWRIGHT_') && !name.startsWith('TEST_') && !name.startsWith('MULTIAUTH_FILE_') && name !== 'FORCE_COLOR') kept[name] = value;
  }
  return kept;
}
