import type { BrowserContext, Request, Route } from 'playwright-core';

/**
 * What Playwright's `reuseContext` leaves behind between tests, taken away: a new page costs a
 * renderer process (about 400 ms a test), so the tests of this folder share one context and page
 * per worker. Playwright resets cookies, cache, localStorage, IndexedDB, extra pages, routes,
 * init scripts and the viewport itself; not sessionStorage (it belongs to the page, which is kept),
 * `window.name`, permissions, extra headers, offline mode or geolocation, which this does.
 * `reused-context.spec.ts` fails when any of them leaks into the next test.
 *
 * @example
 * const cleanup = watchReusedContext(context);
 * await use(context);
 * await cleanup();
 */
export function watchReusedContext(context: BrowserContext): () => Promise<void> {
  const origins = new Set<string>();
  const onRequest = (request: Request): void => {
    if (!request.isNavigationRequest()) return;
    const { protocol, origin } = new URL(request.url());
    if (protocol === 'http:' || protocol === 'https:') origins.add(origin);
  };
  context.on('request', onRequest);
  return async () => {
    context.off('request', onRequest);
    await context.clearPermissions();
    await context.setExtraHTTPHeaders({});
    await context.setOffline(false);
    await context.setGeolocation(null);
    const [page] = context.pages().filter((open) => !open.isClosed());
    if (!page) return;
    // Only the first page outlives the test; its sessionStorage is kept per origin it visited.
    const blank = (route: Route): Promise<void> => route.fulfill({ contentType: 'text/html', body: '<html></html>' });
    await page.route('**/*', blank);
    try {
      for (const origin of origins) {
        await page.goto(`${origin}/`);
        await page.evaluate(() => {
          sessionStorage.clear();
          window.name = '';
        });
      }
    } finally {
      await page.unroute('**/*', blank);
    }
  };
}
