import { closeSync, constants, lstatSync, openSync, writeSync } from 'node:fs';
import { MultiAuthError } from '../../core/errors.js';
import { writeFileAtomically } from '../../core/regular-file.js';

/** What happened to one file `multiauth draft` writes. */
export type FileOutcome = 'written' | 'kept';

/**
 * Whether anything (a file, a link, even a dangling one, a folder) is at `path`.
 *
 * @example
 * occupied('multiauth.yaml'); // true when it exists
 */
export function occupied(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/**
 * Writes the draft: refused when something is at `path` and `force` is not given; with `force`,
 * replaced by a rename (a link planted there is replaced, never written through).
 *
 * @throws MultiAuthError `CLI_USAGE` when `path` is taken and `force` is false.
 * @example
 * writeDraftFile('/repo/multiauth.yaml', 'multiauth.yaml', text, false);
 */
export function writeDraftFile(path: string, shown: string, text: string, force: boolean): void {
  if (occupied(path) && !force) {
    throw new MultiAuthError('CLI_USAGE', `${shown} exists; it was left as it is`, {
      hint: 'Choose another file with --out FILE, or pass --force to replace it.',
    });
  }
  writeFileAtomically(path, text, 0o644);
}

/**
 * Writes a file only when nothing is at `path`: created exclusively, never through a link, with
 * `mode`. For `.env` (secrets, 0600) and `.env.example`: an existing one is the user's.
 *
 * @example
 * writeNewFile('/repo/.env', text, 0o600); // 'kept' when /repo/.env exists
 */
export function writeNewFile(path: string, text: string, mode: number): FileOutcome {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return 'kept';
    throw error;
  }
  try {
    const bytes = Buffer.from(text, 'utf8');
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
  } finally {
    closeSync(fd);
  }
  return 'written';
}
