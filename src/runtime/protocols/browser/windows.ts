import type { BrowserContext, Page } from 'playwright-core';

/**
 * The windows (pages) of a browser step, in the order they appeared, each with a handle: the
 * text `storeWindowHandle` and `opensWindow` store, and `selectWindow handle=…` takes. The page
 * the step started on is `win_ser_local`; the N-th window opened after it is `win_ser_N`.
 */
export class WindowTracker {
  private readonly pages: Page[] = [];
  private readonly handles = new Map<Page, string>();
  private readonly onPage = (page: Page): void => {
    this.track(page);
  };

  /**
   * Starts tracking; call {@link WindowTracker.stop} when the step ends.
   *
   * @example
   * const windows = new WindowTracker(context, page);
   */
  constructor(
    private readonly context: BrowserContext,
    first: Page,
  ) {
    this.track(first);
    for (const page of context.pages()) this.track(page);
    context.on('page', this.onPage);
  }

  /** Stops listening for new windows. */
  stop(): void {
    this.context.off('page', this.onPage);
  }

  private track(page: Page): string {
    let handle = this.handles.get(page);
    if (handle === undefined) {
      handle = `window-${this.pages.length + 1}`;
      this.handles.set(page, handle);
      this.pages.push(page);
    }
    return handle;
  }

  /** The handle of a page (tracking it if it is new). */
  handleOf(page: Page): string {
    return this.track(page);
  }

  /** Every page seen, in order of appearance, closed ones included (indexes stay stable). */
  all(): readonly Page[] {
    return this.pages;
  }

  /** The first page still open, if any. */
  firstOpen(): Page | undefined {
    return this.pages.find((page) => !page.isClosed());
  }

  /**
   * The page a Selenium IDE window locator names, if it exists now: `handle=<handle>`,
   * `win_ser_local`, `win_ser_<N>`, `name=<window.name>` or `title=<document title>`.
   *
   * @example
   * await windows.find('win_ser_1'); // the first popup, once it has opened
   */
  async find(locator: string): Promise<Page | undefined> {
    const open = (page: Page | undefined): Page | undefined => (page && !page.isClosed() ? page : undefined);
    if (locator === 'win_ser_local') return open(this.pages[0]);
    const serial = /^win_ser_(\d+)$/.exec(locator);
    if (serial) return open(this.pages[Number(serial[1])]);
    const [kind, ...rest] = locator.split('=');
    const wanted = rest.join('=');
    for (const page of this.pages) {
      if (page.isClosed()) continue;
      if (kind === 'handle' && this.handles.get(page) === wanted) return page;
      if (kind === 'name' && (await windowName(page)) === wanted) return page;
      if (kind === 'title' && (await page.title().catch(() => undefined)) === wanted) return page;
    }
    return undefined;
  }
}

async function windowName(page: Page): Promise<string | undefined> {
  return page.evaluate(() => window.name).catch(() => undefined);
}
