import type { Browser, BrowserType, ConnectOptions, LaunchOptions } from 'playwright-core';
import { launchDiscovered } from '../runtime/index.js';

/** What a worker's browser is started from: Playwright's worker options of the same names. */
export interface WorkerBrowserOptions {
  browserType: BrowserType;
  browserName: string;
  launchOptions: LaunchOptions;
  /** Playwright's `connectOptions`: a remote browser, used as Playwright's own `browser` would. */
  connectOptions?: ConnectOptions & { wsEndpoint: string };
  /** With `connectOptions`: the launch options the remote side is asked to launch with, as Playwright's `browser` sends them. */
  launchOptionsHeader?: object;
  env: Record<string, string | undefined>;
}

/**
 * The browser of one worker, started on first use only: by a browser sign-in, the pages of
 * `signInAs`, or the tests' own `browser` (which the fixtures make this one): a worker whose tests
 * call APIs never starts one, so an API-only project runs where no browser is installed, and a
 * worker whose user signs in on a page starts one browser, not two. Started as Playwright's own
 * `browser` fixture starts it (its launch options, a remote browser through `connectOptions`),
 * but found as the CLI finds one when the project names no executable.
 *
 * @example
 * const browser = new WorkerBrowser({ browserType: playwright.chromium, browserName: 'chromium', launchOptions, env: process.env });
 * const context = await (await browser.get()).newContext();
 * await browser.close();
 */
export class WorkerBrowser {
  private started?: Promise<Browser>;

  constructor(private readonly options: WorkerBrowserOptions) {}

  /** The browser, started (or connected) on the first call; a failure is the same on every call. */
  get(): Promise<Browser> {
    this.started ??= this.start();
    return this.started;
  }

  /** Closes the browser if it started; one that never started was its caller's error already. */
  async close(): Promise<void> {
    const browser = await this.started?.catch(() => undefined);
    await browser?.close();
  }

  private start(): Promise<Browser> {
    const { browserType, browserName, launchOptions, connectOptions, launchOptionsHeader, env } = this.options;
    if (connectOptions) {
      const headers: Record<string, string> = launchOptionsHeader ? { 'x-playwright-launch-options': asciiJson(launchOptionsHeader) } : {};
      return browserType.connect(connectOptions.wsEndpoint, { ...connectOptions, headers: { ...headers, ...connectOptions.headers } });
    }
    // Found as the CLI finds one: a project without launchOptions.executablePath still gets a
    // browser when Playwright's own is not installed (a system Chromium).
    return launchDiscovered(
      (executablePath) => browserType.launch({ ...launchOptions, ...(executablePath === undefined ? {} : { executablePath }) }),
      { ...(launchOptions.executablePath ? { given: launchOptions.executablePath } : {}), env, chromium: browserName === 'chromium', headless: launchOptions.headless !== false },
    );
  }
}

/** JSON with every character outside ASCII escaped: HTTP headers are ASCII. */
function asciiJson(value: object): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
