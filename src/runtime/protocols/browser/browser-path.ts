import { statSync } from 'node:fs';
import { MultiAuthError } from '../../../core/errors.js';

// Apart from launch.ts, which loads playwright-core: the CLI checks the path even when no user
// needs a browser, and then never loads it.

/**
 * Refuses a browser path given on the command line (or in `MULTIAUTH_BROWSER_PATH`) that names no
 * file: a usage mistake of the command (exit 2), not a failed sign-in, whether or not a user
 * needs the browser.
 *
 * @throws MultiAuthError `CLI_USAGE` when nothing is at `path` or it is a folder.
 * @example
 * checkBrowserPath(values['browser-path']); // throws for '/nope'
 */
export function checkBrowserPath(path: string | undefined): void {
  if (path === undefined) return;
  let isFile = false;
  try {
    isFile = !statSync(path).isDirectory();
  } catch {
    isFile = false;
  }
  if (!isFile) {
    throw new MultiAuthError('CLI_USAGE', `no browser at ${path}`, {
      hint: 'Pass the path of a Chromium executable with --browser-path (or MULTIAUTH_BROWSER_PATH), or run `npx playwright install chromium`.',
    });
  }
}
