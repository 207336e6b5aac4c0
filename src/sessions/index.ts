/**
 * Sessions across workers and runs: memo, 0600 cache files, cross-process lock, refresh once; and
 * `openConfig`, the one way a config is opened for signing in.
 *
 * The front door of the layer. A worker of a run whose sessions are cached never opens the config
 * ({@link readRunDigest}).
 */
import type { OpenConfigOptions, OpenedConfig } from './open-config.js';
import { loadPreflight } from '../runtime/index.js';
import { lazyModule, requireNow } from '../core/lazy-module.js';

export { SessionStore, PASSKEY_KEY, type ResolvedSession, type SessionProvider, type SessionSource, type SessionStoreOptions, type StoreEvent } from './session-store.js';
export { appendRunEvent, readRunEvents, runTotals, summaryLine, type RunEvent, type RunEventKind, type RunTotals } from './run-events.js';
export type { ReplayEntry } from './replay-rows.js';
export { cacheDirFor, ensureCacheDir } from './cache-dir.js';
export { planOrigins } from './plan-origins.js';
export { configOwner, sessionFilePath, readSessionFile, writeSessionFile } from './session-file.js';
export type { TidyResult } from './tidy-cache.js';
export { cacheOff, sessionBackendFromEnv, type BackendChoice } from './store-from-env.js';
export { FileBackend, type FileBackendOptions } from './file-backend.js';
export type { SessionBackend } from './store-backend.js';
export { Sealer, sealerFromEnv } from './seal.js';
export { userCacheKey } from './user-key.js';
export { withFileLock, type FileLockOptions } from './lock.js';
export { configFile, type ConfigFileOptions } from './config-file.js';
export { firstInRun } from './first-in-run.js';
export { carriedDigest, digestOf, quickConfigKey, readRunDigest, writeRunDigest, type RunDigest } from './run-digest.js';
export { runId, shareRunId } from './run-id.js';
export type { Denial } from './denials.js';
export type { OpenConfigOptions, OpenedConfig } from './open-config.js';
export { digestInChild, digestNow, type DigestRequest } from './digest-in-child.js';
export type { UserTypesResult } from './user-types.js';

/**
 * Opens a config the one way the CLI, the fixtures and the role matrix share: finds the file
 * (`multiauth.yaml`, `.yml`, `.json`), loads it (YAML or JSON, `${ENV}` and `.env`), validates it,
 * compiles it, makes the plan's paths absolute, runs `checkPlan` and the runtime's `preflight`,
 * locates every issue at `file:line:col` (compile errors too), and registers the plan's secrets.
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
  const preflight = options.checks === false ? undefined : await loadPreflight();
  return (await lazyModule(() => import('./open-config.js'))).openConfig({ ...options, ...(preflight ? { preflight } : {}) });
}
export { DEFAULT_MATRIX_PARALLEL } from '../core/matrix-parallel.js';
export type { AccessMatrixOptions } from './access-matrix.js';

/**
 * Runs the config's access matrix outside Playwright (`multiauth matrix`): signs each user in, sends
 * every request with each user's session and classifies the answers (loads the matrix runner on
 * first use: a Playwright worker never needs it).
 *
 * @example
 * const observed = await runAccessMatrix(opened, { parallel: 4 });
 */
export async function runAccessMatrix(...args: Parameters<typeof import('./access-matrix.js').runAccessMatrix>): ReturnType<typeof import('./access-matrix.js').runAccessMatrix> {
  return (await lazyModule(() => import('./access-matrix.js'))).runAccessMatrix(...args);
}

/**
 * What a refused request teaches every worker (`isKnownDenial`, `rememberDenial`, `rememberSuspect`,
 * `suspectSince`), loaded on first use: only a worker whose requests were refused needs it.
 *
 * @example
 * const { isKnownDenial } = await loadDenials();
 * if (isKnownDenial(cacheDir, denial)) return response;
 */
export async function loadDenials(): Promise<typeof import('./denials.js')> {
  return lazyModule(() => import('./denials.js'));
}

/**
 * The `multiauth types` declaration of the users' names (`userTypesPath`, `userTypesText`,
 * `writeUserTypes`, `isOwnUserTypes`), loaded on first use: only the worker that opens the config
 * and the CLI write it.
 *
 * @example
 * const { userTypesPath, writeUserTypes } = await loadUserTypes();
 * writeUserTypes(userTypesPath(file), ['alice', 'bob'], 'multiauth.yaml');
 */
export async function loadUserTypes(): Promise<typeof import('./user-types.js')> {
  return lazyModule(() => import('./user-types.js'));
}

/**
 * `removeUnreachableSessions`, which removes the session files of a config that no user reaches any
 * more (loaded on first use: only the first worker of a run that opens the config tidies).
 *
 * @example
 * const { removeUnreachableSessions } = await loadTidyCache();
 * removeUnreachableSessions(cacheDir, configOwner(file), reachable);
 */
export async function loadTidyCache(): Promise<typeof import('./tidy-cache.js')> {
  return lazyModule(() => import('./tidy-cache.js'));
}

/**
 * The rules for passkeys that registering users leave in the cache (`registersUnsealed`,
 * `unsealedPasskeyError`, `unsealedPasskeyWarnings`), loaded on first use: only passkey users and
 * the CLI need them.
 *
 * @example
 * const { registersUnsealed, unsealedPasskeyError } = await loadPasskeySealing();
 * if (registersUnsealed(user, process.env)) throw unsealedPasskeyError(user);
 */
export async function loadPasskeySealing(): Promise<typeof import('./passkey-sealing.js')> {
  return lazyModule(() => import('./passkey-sealing.js'));
}

/**
 * The run's sign-in timeline as HTML (a picture and a table) and as text (`timelineHtml`,
 * `timelineText`), loaded on first use: only the Playwright runner and the timeline's test draw it.
 *
 * @example
 * const { timelineHtml } = await loadRunTimeline();
 * writeFileSync('test-results/multiauth-timeline.html', timelineHtml(events));
 */
export async function loadRunTimeline(): Promise<typeof import('./run-timeline.js')> {
  return lazyModule(() => import('./run-timeline.js'));
}

/**
 * {@link loadRunTimeline} without waiting, where the package can `require` its own modules (as
 * built: CommonJS); undefined where it cannot (see `requireNow`). For the runner's exit handler.
 *
 * @example
 * const timeline = requireRunTimeline(); // undefined when run from the sources
 */
export function requireRunTimeline(): typeof import('./run-timeline.js') | undefined {
  return requireNow(() => import('./run-timeline.js'));
}

/**
 * {@link loadReplayRows} without waiting, as {@link requireRunTimeline}.
 *
 * @example
 * const rows = requireReplayRows()?.readReplayEntries(file);
 */
export function requireReplayRows(): typeof import('./replay-rows.js') | undefined {
  return requireNow(() => import('./replay-rows.js'));
}

/**
 * The run's access replay rows (`appendReplayEntry`, `readReplayEntries`), loaded on first use:
 * only the runner and the workers of tests that replay need them.
 *
 * @example
 * const { appendReplayEntry } = await loadReplayRows();
 */
export async function loadReplayRows(): Promise<typeof import('./replay-rows.js')> {
  return lazyModule(() => import('./replay-rows.js'));
}

/**
 * The run's replay claims and time (`runReplayClaims`), loaded on first use as the rows are.
 *
 * @example
 * const { runReplayClaims } = await loadReplayClaims();
 */
export async function loadReplayClaims(): Promise<typeof import('./replay-claims.js')> {
  return lazyModule(() => import('./replay-claims.js'));
}
