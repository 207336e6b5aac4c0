import { existsSync } from 'node:fs';

/**
 * The Chromium the suite's tests and child runs launch: `MULTIAUTH_BROWSER_PATH`, else Debian's old
 * headless shell (package `chromium-headless-shell`, what Playwright itself runs headless: about
 * half the CPU of the full browser, issue 36), else Debian's full Chromium.
 */
export const CHROMIUM: string =
  process.env.MULTIAUTH_BROWSER_PATH ||
  (['/usr/lib/chromium/chromium-headless-shell', '/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((path) => existsSync(path)) ?? '/usr/lib/chromium/chromium');
