import { NotRegularFileError, readRegularFile, writeFileAtomically } from '../core/regular-file.js';

/** Session files, marks and digests are small: a larger file in the cache directory is none of ours. */
export const MAX_CACHE_FILE_BYTES = 16 * 1024 * 1024;

/**
 * The text of a file the session cache directory holds: undefined when there is none or it cannot
 * be read, `'unusable'` when something else sits there (a link, a FIFO, a device, a directory, a file
 * too large). Never follows a link and never blocks: a cache directory may be shared, restored from
 * a CI cache or unpacked from a bundle, and what was planted in it must not reach outside it or hang
 * a worker.
 *
 * @example
 * const text = readCacheFile('.auth/alice-1f2e3d4c5b6a7988.json');
 */
export function readCacheFile(path: string): string | undefined | 'unusable' {
  try {
    return readRegularFile(path, { maxBytes: MAX_CACHE_FILE_BYTES, followLinks: false });
  } catch (error) {
    if (error instanceof NotRegularFileError) return error.reason === 'missing' ? undefined : 'unusable';
    return undefined;
  }
}

/**
 * Writes a file into the session cache directory: 0600, through a temp file and a rename, never
 * through a link or into a FIFO planted at `path` ({@link writeFileAtomically}). The one way every
 * writer of the cache directory writes.
 *
 * @throws the file system's error when the directory is not writable.
 * @example
 * writeCacheFile('.auth/alice-1f2e3d4c5b6a7988.json.checked', JSON.stringify(mark));
 */
export function writeCacheFile(path: string, text: string): void {
  writeFileAtomically(path, text, 0o600);
}
