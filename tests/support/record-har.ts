import type { Browser, Page } from '@playwright/test';
import { join } from 'node:path';

/** What a recording does in its page: sign in, then one or more signed-in requests. */
export type Recording = (page: Page) => Promise<void>;

/**
 * Records a HAR as users do (Playwright's `recordHar`, bodies embedded): a fresh context of the
 * worker's browser, `record` run in its page, the context closed to write the file. Requests go
 * through the page (navigations and `fetch`), since only the page's traffic is recorded.
 *
 * @example
 * const file = await recordHar(browser, dir, 'token.har', async (page) => { await page.goto(url); ... });
 */
export async function recordHar(browser: Browser, dir: string, name: string, record: Recording): Promise<string> {
  const path = join(dir, name);
  const context = await browser.newContext({ recordHar: { path, content: 'embed' } });
  try {
    await record(await context.newPage());
  } finally {
    await context.close();
  }
  return path;
}

/**
 * `fetch` in the page (same origin, the browser's cookies), returning the parsed JSON answer.
 *
 * @example
 * const body = await pageFetch(page, '/auth/token', { method: 'POST', json: { username: 'alice', password: 'x' } });
 */
export async function pageFetch(
  page: Page,
  url: string,
  init: { method?: string; json?: unknown; form?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<unknown> {
  return page.evaluate(async ({ url, init }) => {
    const headers: Record<string, string> = { ...init.headers };
    let body: string | undefined;
    if (init.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(init.json);
    } else if (init.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(url, { method: init.method ?? 'GET', headers, body });
    const text = await response.text();
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }, { url, init });
}
