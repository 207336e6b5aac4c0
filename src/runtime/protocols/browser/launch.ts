import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { MultiAuthError } from '../../../core/errors.js';

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
 * Launches a headless Chromium for `multiauth login` (outside Playwright Test): the executable is
 * `--browser-path`, else `MULTIAUTH_BROWSER_PATH`, else Playwright's own installed Chromium, else a
 * system chromium. Playwright runs Chromium without its sandbox unless asked, which also makes it
 * start as root (containers, CI).
 *
 * @throws MultiAuthError `CLI_USAGE` when the given path does not exist or no browser can start.
 * @example
 * const { browser, close } = await launchBrowserForCli({ browserPath: opts.browserPath, env: process.env });
 * try { ... } finally { await close(); }
 */
export async function launchBrowserForCli(options: CliBrowserOptions): Promise<{ browser: Browser; close(): Promise<void> }> {
  const given = options.browserPath ?? options.env.MULTIAUTH_BROWSER_PATH;
  if (given !== undefined && !existsSync(given)) {
    throw new MultiAuthError('CLI_USAGE', `no browser at ${given}`, {
      hint: 'Pass the path of a Chromium executable with --browser-path (or MULTIAUTH_BROWSER_PATH), or run `npx playwright install chromium`.',
    });
  }
  const candidates = given !== undefined ? [given] : [undefined, ...SYSTEM_CHROMIUM.filter((path) => existsSync(path))];
  const proxy = options.proxy ? { server: options.proxy } : undefined;
  let lastError: unknown;
  for (const executablePath of candidates) {
    try {
      const browser = await chromium.launch({ headless: true, executablePath, proxy, args: ['--disable-gpu', '--disable-dev-shm-usage'] });
      return { browser, close: () => browser.close() };
    } catch (error) {
      lastError = error;
    }
  }
  throw new MultiAuthError('CLI_USAGE', 'cannot start a browser for the browser sign-in steps', {
    hint: 'Install one (`npx playwright install chromium`), or pass a Chromium executable with --browser-path or MULTIAUTH_BROWSER_PATH.',
    details: [lastError instanceof Error ? (lastError.message.split('\n')[0] ?? '') : String(lastError)],
    cause: lastError,
  });
}
