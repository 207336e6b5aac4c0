import type { Browser, BrowserType, ConnectOptions, LaunchOptions } from 'playwright-core';
import { launchDiscovered } from '../runtime/index.js';

/** What a worker's browser is started from: Playwright's worker options of the same names. */
export interface WorkerBrowserOptions {
  browserType: BrowserType;
  browserName: string;
  launchOptions: LaunchOptions;
  /** Playwright's `connectOptions`: a remote browser, used as Playwright's own `browser` would. */
  connectOptions?: ConnectOptions & { wsEndpoint: string };
  env: Record<string, string | undefined>;
}

/**
 * The browser of one worker for what playwright-multiauth opens itself (browser sign-ins, the
 * pages of `signInAs`), started on first use only: a worker whose tests call APIs never starts
 * one, so an API-only project runs where no browser is installed. Playwright's own `browser`
 * fixture cannot serve: asking for it starts it.
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
    const { browserType, browserName, launchOptions, connectOptions, env } = this.options;
    if (connectOptions) return browserType.connect(connectOptions.wsEndpoint, connectOptions);
    // Found as the CLI finds one: a project without launchOptions.executablePath still gets a
    // browser when Playwright's own is not installed (a system Chromium).
    return launchDiscovered(
      (executablePath) => browserType.launch({ ...launchOptions, ...(executablePath === undefined ? {} : { executablePath }) }),
      { ...(launchOptions.executablePath ? { given: launchOptions.executablePath } : {}), env, chromium: browserName === 'chromium' },
    );
  }
}
