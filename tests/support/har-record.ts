import type { Browser, Page } from '@playwright/test';

/**
 * Runs `steps` in a new context of `browser` that records a HAR to `path` with the bodies embedded
 * (Playwright's `recordHar: { path, content: 'embed' }`, what `codegen --save-har` writes), and
 * returns `path` once the context is closed, which is when Playwright writes the file. The context
 * is closed even when a step fails, so no recording is left half open.
 *
 * @example
 * const har = await recordHar(browser, join(dir, 'login.har'), async (page) => {
 *   await page.goto(`${url}/login`);
 *   // sign in, then one signed-in request
 * });
 */
export async function recordHar(browser: Browser, path: string, steps: (page: Page) => Promise<void>): Promise<string> {
  const context = await browser.newContext({ recordHar: { path, content: 'embed' } });
  try {
    await steps(await context.newPage());
  } finally {
    await context.close();
  }
  return path;
}
