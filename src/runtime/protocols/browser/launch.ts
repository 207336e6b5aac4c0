import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { MultiAuthError } from '../../../core/errors.js';
import { checkBrowserPath } from './browser-path.js';
import { loadPlaywrightCore } from './playwright-core.js';

/** Options of {@link launchBrowserForCli}. */
export interface CliBrowserOptions {
  /** `--browser-path`; wins over the environment. */
  browserPath?: string;
  /** Read for `MULTIAUTH_BROWSER_PATH`. */
  env: Record<string, string | undefined>;
  /** Proxy for every context of the browser (`http://host:port`). */
  proxy?: string;
}

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

/**
 * Launches a headless Chromium for `multiauth login` (outside Playwright Test), found by
 * {@link launchDiscovered}. Playwright runs Chromium without its sandbox unless asked, which also
 * makes it start as root (containers, CI).
 *
 * @throws MultiAuthError `CLI_USAGE` when the named executable does not exist;
 * `BROWSER_STEP_FAILED` when no browser can start.
 * @example
 * const { browser, close } = await launchBrowserForCli({ browserPath: opts.browserPath, env: process.env });
 * try { ... } finally { await close(); }
 */
export async function launchBrowserForCli(options: CliBrowserOptions): Promise<{ browser: Browser; close(): Promise<void> }> {
  // A path on the command line (or in the shell's environment) that names nothing is a usage
  // mistake of this command (exit 2), not a failed sign-in.
  const named = options.browserPath ?? (options.env.MULTIAUTH_BROWSER_PATH || undefined);
  checkBrowserPath(named);
  const proxy = options.proxy ? { server: options.proxy } : undefined;
  const { chromium } = loadPlaywrightCore();
  const browser = await launchDiscovered(
    (executablePath) => chromium.launch({ headless: true, executablePath, proxy, args: ['--disable-gpu', '--disable-dev-shm-usage'] }),
    { ...(options.browserPath === undefined ? {} : { given: options.browserPath }), env: options.env, chromium: true },
  );
  return { browser, close: () => browser.close() };
}
