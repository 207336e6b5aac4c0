import { rmSync } from 'node:fs';
import { basename } from 'node:path';
import type { MultiAuthError } from '../core/errors.js';
import type { SignInResult } from '../runtime/index.js';
import { ensureCacheDir } from './cache-dir.js';
import { readCacheFile, writeCacheFile } from './cache-file.js';
import { encodeCheckMark, isCheckedMark } from './check-mark.js';
import { failureFilePath, forgetFailure, readFailure, writeFailure } from './failure-memory.js';
import { withFileLock, type FileLockOptions } from './lock.js';
import type { Sealer } from './seal.js';
import { readSessionFile, sessionFilePath, writeSessionFile } from './session-file.js';
import type { SessionBackend } from './store-backend.js';

/** Options of {@link FileBackend}. */
export interface FileBackendOptions {
  /** The cache directory, e.g. `.auth`. */
  dir: string;
  /** The config that writes the files (`configOwner`), for tidying up. */
  owner?: string;
  lock?: FileLockOptions;
  /** Seals sessions (`MULTIAUTH_CACHE_KEY`); absent: plaintext, 0600. */
  sealer?: Sealer;
}

/**
 * The default store: one 0600 file per user and key in the cache directory, a lock directory beside
 * it (proper-lockfile), and `.failed` / `.checked` marks (see docs/caching.md), sealed as the sessions
 * are. Nothing to run; nothing read or written through a link.
 *
 * @example
 * const backend = new FileBackend({ dir: '.auth' });
 * await backend.read(backend.slot('alice', key), key);
 */
export class FileBackend implements SessionBackend {
  constructor(private readonly options: FileBackendOptions) {}

  slot(user: string, key: string): string {
    return sessionFilePath(this.options.dir, key, user);
  }

  async read(slot: string, key: string): Promise<SignInResult | undefined> {
    return readSessionFile(slot, key, this.options.sealer);
  }

  async write(slot: string, key: string, session: SignInResult): Promise<void> {
    ensureCacheDir(this.options.dir);
    writeSessionFile(slot, key, session, this.options.owner, this.options.sealer);
  }

  async remove(slot: string): Promise<void> {
    rmSync(slot, { force: true });
    rmSync(`${slot}.checked`, { force: true });
  }

  withLock<T>(slot: string, work: () => Promise<T>): Promise<T> {
    ensureCacheDir(this.options.dir);
    return withFileLock(slot, work, this.options.lock);
  }

  async readFailure(slot: string, run: string): Promise<MultiAuthError | undefined> {
    return readFailure(failureFilePath(slot), run, this.options.sealer);
  }

  async writeFailure(slot: string, run: string, error: MultiAuthError, redact: (text: string) => string): Promise<void> {
    writeFailure(failureFilePath(slot), run, error, redact, this.options.sealer);
  }

  async forgetFailure(slot: string): Promise<void> {
    forgetFailure(failureFilePath(slot));
  }

  async checkedInRun(slot: string, run: string, session: SignInResult): Promise<boolean> {
    const path = `${slot}.checked`;
    const text = readCacheFile(path);
    return typeof text === 'string' && text !== 'unusable' && isCheckedMark(text, run, session, basename(path), this.options.sealer);
  }

  async markChecked(slot: string, run: string, session: SignInResult): Promise<void> {
    const path = `${slot}.checked`;
    try {
      writeCacheFile(path, encodeCheckMark(run, session, basename(path), this.options.sealer));
    } catch {
      // Best effort: another worker checks once more.
    }
  }

  async close(): Promise<void> {}
}
