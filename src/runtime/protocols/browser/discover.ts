import { existsSync } from 'node:fs';
import { MultiAuthError } from '../../../core/errors.js';

// Apart from launch.ts (the CLI's browser), which loads on first use: every worker whose tests have
// pages starts its browser through this, and a module loaded on first use costs a worker a few ms.

/** Where Debian and Ubuntu put chromium, tried when nothing else is given. */
const SYSTEM_CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium', '/usr/bin/chromium-browser'];
/**
 * Debian's old headless shell (package `chromium-headless-shell`), tried first for a headless
 * launch: what Playwright itself runs headless when it has its own browsers, and about half the
 * CPU of the full browser for the same pages (issue 36 measured 4.8 against 9.8-10.9 CPU-s for ten
 * contexts with a page, a form and a screenshot each).
 */
const SYSTEM_HEADLESS_SHELL = ['/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium-headless-shell'];

/** Where a browser comes from, in the order they are tried. */
export interface BrowserDiscovery {
  /** An executable named by the user (`--browser-path`, `launchOptions.executablePath`): the only one tried. */
  given?: string;
  /** Read for `MULTIAUTH_BROWSER_PATH`. */
  env: Record<string, string | undefined>;
  /** Only Chromium has system installs to look for; other browsers are Playwright's own. */
  chromium: boolean;
  /** `false` for a headed launch, which the headless shell cannot do; default headless. */
  headless?: boolean;
}

/**
 * Launches a browser, found as the CLI and the fixtures both find it: the given executable, else
 * `MULTIAUTH_BROWSER_PATH`, else Playwright's own installed browser, else a system Chromium
 * (Debian's, Ubuntu's; its headless shell first unless the launch is headed). `launch` starts one
 * executable (`undefined`: Playwright's own).
 *
 * @throws MultiAuthError `BROWSER_STEP_FAILED` listing what was tried and the two ways to fix it.
 * @example
 * const browser = await launchDiscovered((executablePath) => chromium.launch({ executablePath }), { env: process.env, chromium: true });
 */
export async function launchDiscovered<B>(launch: (executablePath: string | undefined) => Promise<B>, options: BrowserDiscovery): Promise<B> {
  const named = options.given ?? (options.env.MULTIAUTH_BROWSER_PATH || undefined);
  const source = options.given !== undefined ? 'the given executable' : 'MULTIAUTH_BROWSER_PATH';
  if (named !== undefined && !existsSync(named)) {
    throw new MultiAuthError('BROWSER_STEP_FAILED', `no browser at ${named} (${source})`, { hint: HOW_TO_FIX });
  }
  const system = [...(options.headless === false ? [] : SYSTEM_HEADLESS_SHELL), ...SYSTEM_CHROMIUM];
  const candidates: Array<string | undefined> = named !== undefined ? [named] : [undefined, ...(options.chromium ? system.filter((path) => existsSync(path)) : [])];
  const tried: string[] = [];
  let lastError: unknown;
  for (const executablePath of candidates) {
    try {
      return await launch(executablePath);
    } catch (error) {
      lastError = error;
      tried.push(`${executablePath ?? "Playwright's own browser"}: ${firstLine(error)}`);
    }
  }
  if (named === undefined && options.chromium) tried.push(`no system Chromium at ${SYSTEM_CHROMIUM.filter((path) => !existsSync(path)).join(', ')}`);
  throw new MultiAuthError('BROWSER_STEP_FAILED', 'cannot start a browser for the browser sign-in steps', {
    details: tried.map((line) => `tried ${line}`),
    hint: HOW_TO_FIX,
    cause: lastError,
  });
}

const HOW_TO_FIX =
  'Either install Playwright\'s browser (`npx playwright install chromium`), or name an installed one: ' +
  'launchOptions: { executablePath } in playwright.config (MULTIAUTH_BROWSER_PATH=/path/to/chromium, or --browser-path for the CLI).';

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // Playwright's message quotes its install banner over several lines: the first says it.
  return (text.split('\n').find((line) => line.trim() !== '') ?? '').replace(/^\w+\.launch: /, '').slice(0, 200);
}
