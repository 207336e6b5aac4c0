import { lstatSync, type Stats } from 'node:fs';
import { CONFIG_LIMITS } from '../../config/index.js';
import { MultiAuthError } from '../../core/errors.js';
import { readRegularFile, writeFileAtomically } from '../../core/regular-file.js';
import { updateAccessExpect, type ObservedMatrix } from './update-expect.js';

/**
 * Checks, before the matrix runs, that `--update` will be able to replace the config: not a link.
 *
 * @throws MultiAuthError `CLI_USAGE` for a symbolic link.
 * @example
 * recordableConfig(opened.file); // the file's lstat
 */
export function recordableConfig(file: string): Stats {
  const stat = lstatSync(file);
  if (stat.isSymbolicLink()) {
    throw new MultiAuthError('CLI_USAGE', `${file} is a symbolic link: --update does not write through links`, {
      hint: 'Run multiauth matrix --update -c on the file the link points at.',
    });
  }
  return stat;
}

/**
 * `multiauth matrix --update`: writes what the matrix observed into the config file's
 * `access.expect` ({@link updateAccessExpect}), replacing the file atomically with its mode kept.
 * A config that is a symbolic link is refused: the package never writes through a link, and
 * replacing the link by a file would cut it from what it points at.
 *
 * @throws MultiAuthError `CLI_USAGE` for a linked config; those of {@link updateAccessExpect}.
 * @example
 * recordExpectations(opened.file, observed); // multiauth.yaml now has access.expect
 */
export function recordExpectations(file: string, observed: ObservedMatrix): void {
  const stat = recordableConfig(file);
  const text = readRegularFile(file, { maxBytes: CONFIG_LIMITS.fileBytes, followLinks: false });
  writeFileAtomically(file, updateAccessExpect(text, observed), stat.mode & 0o777);
}
