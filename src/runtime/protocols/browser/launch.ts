import type { Browser } from 'playwright-core';
import { checkBrowserPath } from './browser-path.js';
import { launchDiscovered } from './discover.js';
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
