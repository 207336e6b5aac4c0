import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { stackFiles } from '../core/call-site.js';
import { ownTree } from '../core/package-files.js';

/** Playwright's default config names (`playwright test` looks for these when not given `-c`). */
const PLAYWRIGHT_CONFIG_NAMES = ['ts', 'js', 'mts', 'mjs', 'cts', 'cjs'].map((ext) => `playwright.config.${ext}`);

/** This package's own code (`dist/`, or `src/` when run from source): its frames are not the caller. */
let ownDir: string | undefined;

/**
 * The folder the role matrix resolves config paths from: the Playwright config's folder, as seen from
 * the file that calls `authUsers` / `authProjects`. Playwright tells nobody where its config is
 * while the config and the specs load (there is no test info yet), so it is found from the calling
 * file: its own folder when that holds a `playwright.config.*`, else the nearest parent folder that
 * does; failing that, the calling file's folder; without a calling file, the current folder.
 *
 * @example
 * // called from /repo/e2e/tests/roles.spec.ts, with /repo/e2e/playwright.config.ts:
 * playwrightConfigDir(); // '/repo/e2e'
 */
export function playwrightConfigDir(from: string | undefined = callerFile()): string {
  if (from === undefined) return process.cwd();
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    if (PLAYWRIGHT_CONFIG_NAMES.some((name) => existsSync(join(dir, name)))) return dir;
    if (dirname(dir) === dir) return dirname(from);
  }
}

/**
 * The file whose code called into this package: the first frame of the stack outside it.
 *
 * @example
 * callerFile(); // '/repo/e2e/tests/roles.spec.ts'
 */
export function callerFile(): string | undefined {
  ownDir ??= ownTree();
  return stackFiles(callerFile).find((path) => !path.startsWith((ownDir as string) + sep));
}

/**
 * The Playwright config file of a `playwright test` command line, as Playwright finds it: the file
 * or folder of `-c`/`--config`, else the current folder; in a folder, the first of
 * `playwright.config.{ts,js,mts,mjs,cts,cjs}` there. Undefined when there is none.
 *
 * @example
 * playwrightConfigFile(['node', 'cli.js', 'test', '-c', 'e2e'], '/repo'); // '/repo/e2e/playwright.config.ts'
 */
export function playwrightConfigFile(argv: readonly string[], cwd: string): string | undefined {
  let given: string | undefined;
  for (let i = 3; i < argv.length; i++) {
    const arg = argv[i] as string;
    if ((arg === '-c' || arg === '--config') && i + 1 < argv.length) given = argv[++i];
    else if (arg.startsWith('--config=')) given = arg.slice('--config='.length);
  }
  const target = given === undefined ? cwd : resolve(cwd, given);
  try {
    if (!statSync(target).isDirectory()) return realpathSync(target);
    const found = PLAYWRIGHT_CONFIG_NAMES.map((name) => join(target, name)).find((file) => existsSync(file));
    return found === undefined ? undefined : realpathSync(found);
  } catch {
    return undefined;
  }
}
