import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, renameSync, rmSync, statSync, writeSync, type Stats } from 'node:fs';

/** Why {@link readRegularFile} read nothing. */
export type NotRegularReason = 'missing' | 'directory' | 'link' | 'not-regular' | 'too-large';

/**
 * A path that is not a regular file of the size a reader accepts: what {@link readRegularFile}
 * throws instead of opening a FIFO (which blocks), a device (`/dev/zero` never ends) or a link it
 * must not follow. Callers turn it into their own located `MultiAuthError`, or ignore the file.
 */
export class NotRegularFileError extends Error {
  /** What was found, in words: `it is not a regular file (a FIFO, a device or a socket)`. */
  readonly what: string;

  constructor(
    readonly path: string,
    readonly reason: NotRegularReason,
    /** The size found, for `too-large`. */
    readonly size?: number,
  ) {
    super(`${path}: ${describeReason(reason)}`);
    this.what = describeReason(reason);
    this.name = 'NotRegularFileError';
  }
}

/** Options of {@link readRegularFile}. */
export interface RegularFileOptions {
  /** More bytes than this are refused, however the file grows while it is read. */
  maxBytes: number;
  /**
   * false: a symbolic link is refused (`link`) rather than followed, for files a process writes
   * itself (the session cache); default true, for files the user names (a config, a `.env`).
   */
  followLinks?: boolean;
}

/**
 * Reads a regular file as UTF-8, at most `maxBytes`: checked before it is opened (stat), opened
 * without blocking (a FIFO swapped in meanwhile cannot hang the process) and without following a
 * final link when `followLinks` is false, checked again once open (fstat), and read with a byte bound.
 *
 * @throws NotRegularFileError when it is missing, a directory, a link (not followed), a FIFO, device
 *   or socket, or larger than `maxBytes`; other errors (permissions) as Node throws them.
 * @example
 * const text = readRegularFile('.env', { maxBytes: 1024 * 1024 });
 */
export function readRegularFile(path: string, options: RegularFileOptions): string {
  const follow = options.followLinks !== false;
  let before: Stats;
  try {
    before = follow ? statSync(path) : lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new NotRegularFileError(path, 'missing');
    throw error;
  }
  checkKind(path, before, options.maxBytes);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | (follow ? 0 : constants.O_NOFOLLOW));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new NotRegularFileError(path, 'missing');
    if (code === 'ELOOP') throw new NotRegularFileError(path, 'link');
    throw error;
  }
  try {
    const opened = fstatSync(fd);
    checkKind(path, opened, options.maxBytes);
    return readBounded(fd, path, Math.min(opened.size, options.maxBytes), options.maxBytes);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `text` to `path` so that no reader sees half of it and nothing is written through a link:
 * into a new temp file beside it (created exclusively, never following a link, mode `mode`), then
 * renamed over `path` (a rename replaces a link or FIFO planted at `path`; it never writes into
 * what one points at). Every write into the session cache directory goes through here.
 *
 * @throws the file system's error when the directory is not writable; the temp file is removed.
 * @example
 * writeFileAtomically('.auth/alice-1f2e3d4c5b6a7988.json.checked', JSON.stringify(mark));
 */
export function writeFileAtomically(path: string, text: string, mode = 0o600): void {
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
  try {
    const bytes = Buffer.from(text, 'utf8');
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

function checkKind(path: string, stat: Stats, maxBytes: number): void {
  if (stat.isSymbolicLink()) throw new NotRegularFileError(path, 'link');
  if (stat.isDirectory()) throw new NotRegularFileError(path, 'directory');
  if (!stat.isFile()) throw new NotRegularFileError(path, 'not-regular');
  if (stat.size > maxBytes) throw new NotRegularFileError(path, 'too-large', stat.size);
}

/** Reads to the end, growing the buffer up to one byte past `maxBytes` (a file may grow after fstat). */
function readBounded(fd: number, path: string, expected: number, maxBytes: number): string {
  let buffer = Buffer.allocUnsafe(expected + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (buffer.length > maxBytes) throw new NotRegularFileError(path, 'too-large', length);
      const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const read = readSync(fd, buffer, length, buffer.length - length, null);
    if (read === 0) break;
    length += read;
  }
  return buffer.toString('utf8', 0, length);
}

function describeReason(reason: NotRegularReason): string {
  switch (reason) {
    case 'missing':
      return 'no such file';
    case 'directory':
      return 'it is a directory';
    case 'link':
      return 'it is a symbolic link';
    case 'not-regular':
      return 'it is not a regular file (a FIFO, a device or a socket)';
    case 'too-large':
      return 'it is too large';
  }
}
