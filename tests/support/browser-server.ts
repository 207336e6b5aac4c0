import { chromium } from 'playwright-core';
import { CHROMIUM } from './packed-package.js';

/** A chromium started once, that child runs' workers connect to instead of each launching its own. */
export interface BrowserServer {
  /** Playwright's `use.connectOptions.wsEndpoint` for a child config. */
  wsEndpoint: string;
  /** `use: { connectOptions: ... }` text for an inline playwright.config.ts. */
  useText: string;
  stop(): Promise<void>;
}

/**
 * Debian's chromium (or MULTIAUTH_BROWSER_PATH) as a Playwright browser server. A child run's
 * workers launch a browser each (a second or more of CPU every time, six to nine times in a file
 * with a project per scenario); connected through `connectOptions` they share this one, each
 * worker in its own contexts, as `page` and the sign-in's browser make them.
 *
 * @example
 * const browser = await startBrowserServer();
 * const config = inlineConfig().replace('use: {', `use: { ${browser.useText}`);
 * await browser.stop();
 */
export async function startBrowserServer(): Promise<BrowserServer> {
  const server = await chromium.launchServer({ executablePath: CHROMIUM });
  const wsEndpoint = server.wsEndpoint();
  return { wsEndpoint, useText: `connectOptions: { wsEndpoint: ${JSON.stringify(wsEndpoint)} },`, stop: () => server.close() };
}
