/**
 * Sessions across workers and runs: memo, 0600 cache files, cross-process lock, refresh once; and
 * `openConfig`, the one way a config is opened for signing in.
 */
export { SessionStore, type ResolvedSession, type SessionProvider, type SessionSource, type SessionStoreOptions } from './session-store.js';
export { ensureCacheDir } from './cache-dir.js';
export { sessionFilePath, readSessionFile, writeSessionFile } from './session-file.js';
export { withFileLock, type FileLockOptions } from './lock.js';
export { openConfig, configFile, type OpenConfigOptions, type OpenedConfig } from './open-config.js';
export { firstInRun } from './first-in-run.js';
