import { join } from 'node:path';
import { MultiAuthError } from './errors.js';
import { dependencyOnFirstUse } from './package-files.js';
import { NotRegularFileError, readRegularFile } from './regular-file.js';

// Here, not in config/, so that `multiauthEnv()` in playwright.config.ts (loaded by every worker)
// reads `.env` as the config does without loading the YAML parser and the schema.

/** Environment variables as `process.env` holds them. */
export type Env = Record<string, string | undefined>;

/** The bound on a `.env` file: the config's own (`CONFIG_LIMITS.fileBytes`, a test pins them equal). */
export const DOTENV_MAX_BYTES = 8 * 1024 * 1024;

/**
 * The environment a config sees: the real environment, plus the `.env` file in `dir` for the names
 * the real environment does not set. Nothing is written into `process.env`.
 *
 * @example
 * const env = environmentFor('/repo', process.env); // .env of /repo under process.env
 */
export function environmentFor(dir: string | undefined, real: Env): Env {
  if (dir === undefined) return real;
  const file = join(dir, '.env');
  let text: string;
  try {
    text = readRegularFile(file, { maxBytes: DOTENV_MAX_BYTES });
  } catch (error) {
    if (error instanceof NotRegularFileError) {
      if (error.reason === 'missing') return real;
      // Checked before it is opened: a FIFO would hang the run, /dev/zero would exhaust memory.
      throw new MultiAuthError('CONFIG_LIMIT', `cannot read ${file}: ${error.reason === 'too-large' ? `it is larger than the ${DOTENV_MAX_BYTES / 1024 / 1024} MiB a config may be` : error.what}`, {
        hint: 'Make the .env file beside the config a regular file of NAME=value lines, or remove it.',
      });
    }
    throw new MultiAuthError('CONFIG_NOT_FOUND', `cannot read ${file}: ${(error as Error).message}`, {
      hint: 'Make the .env file beside the config readable, or remove it.',
    });
  }
  const merged: Env = { ...dotenv().parse(text) };
  for (const [name, value] of Object.entries(real)) if (value !== undefined) merged[name] = value;
  return merged;
}

/** dotenv, loaded on the first `.env` file to read: most projects have none, and every process of a run imports this module. */
const dotenv = dependencyOnFirstUse<typeof import('dotenv')>('dotenv');
