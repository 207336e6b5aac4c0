/**
 * Sessions across workers and runs: memo, 0600 cache files, cross-process lock, refresh once; and
 * `openConfig`, the one way a config is opened for signing in.
 *
 * The front door of the layer. Opening a config loads the loader, the schema, the compiler and the
 * checks, which cost a Playwright worker more CPU than anything else it does before its first test;
 * a worker of a run whose sessions are cached never needs them ({@link readRunDigest}), so
 * {@link openConfig} loads them on its first call.
 */
import { createRequire } from 'node:module';
import type { OpenConfigOptions, OpenedConfig } from './open-config.js';

export { SessionStore, type ResolvedSession, type SessionProvider, type SessionSource, type SessionStoreOptions } from './session-store.js';
export { cacheDirFor, ensureCacheDir } from './cache-dir.js';
export { sessionFilePath, readSessionFile, writeSessionFile } from './session-file.js';
export { withFileLock, type FileLockOptions } from './lock.js';
export { configFile, type ConfigFileOptions } from './config-file.js';
export { firstInRun } from './first-in-run.js';
export { digestOf, quickConfigKey, readRunDigest, runId, writeRunDigest, type RunDigest } from './run-digest.js';
export type { OpenConfigOptions, OpenedConfig } from './open-config.js';

// Synchronous for the role matrix only: authUsers() runs while playwright.config.ts loads, where
// nothing async can; it runs in the runner, before any worker (see openConfigSync).
const load = createRequire(import.meta.url);

/**
 * Opens a config the one way the CLI, the fixtures and the role matrix share: finds the file
 * (`multiauth.yaml`, `.yml`, `.json`), loads it (YAML or JSON, `${ENV}` and `.env`), validates it,
 * compiles it, makes the plan's paths absolute, runs `checkPlan` and the runtime's `preflight`,
 * locates every issue at `file:line:col` (compile errors too), and registers the plan's secrets.
 * Loads the loader, the schema and the compiler on first call.
 *
 * @throws MultiAuthError `CONFIG_NOT_FOUND` when there is no config (with `notFoundHint`), or the
 *   file cannot be read.
 * @throws ConfigInvalidError with every issue of the file (warnings too), located, sorted and masked,
 *   when any is an error.
 * @example
 * const { plan, warnings, redactor } = await openConfig({
 *   baseDir: process.cwd(), env: process.env, notFoundHint: 'Pass the config file with -c FILE.',
 * });
 */
export async function openConfig(options: OpenConfigOptions): Promise<OpenedConfig> {
  return (await import('./open-config.js')).openConfig(options);
}

/**
 * {@link openConfig} without waiting, for the role matrix, which must answer while
 * `playwright.config.ts` loads. It loads the opener with `require()` of its ES module: only the runner
 * (or a worker that finds no digest of the run) comes here, and a module first loaded that way under
 * a loader that transpiles it would not serve `import()` later, so nothing else may use it.
 *
 * @example
 * const { plan } = openConfigSync({ baseDir, env: process.env, notFoundHint, checks: false });
 */
export function openConfigSync(options: OpenConfigOptions): OpenedConfig {
  return (load('./open-config.js') as typeof import('./open-config.js')).openConfig(options);
}
