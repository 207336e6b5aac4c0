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

/** One request to send for {@link harOfFetches}. */
export interface HarFetch {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * A HAR (1.2, as a browser writes it) of real requests sent from here with `fetch` (redirects
 * not followed): each request as sent, its answer as received. For a recorded session without a
 * browser's cost.
 *
 * @example
 * const har = await harOfFetches([{ url: `${demo.url}/api/orders`, headers: { Authorization: `Bearer ${token}` } }]);
 * writeFileSync(join(dir, 'alice.har'), JSON.stringify(har));
 */
export async function harOfFetches(requests: readonly HarFetch[]): Promise<{ log: { version: string; creator: { name: string; version: string }; entries: unknown[] } }> {
  const entries: unknown[] = [];
  for (const request of requests) {
    const method = request.method ?? 'GET';
    const headers = Object.entries(request.headers ?? {}).map(([name, value]) => ({ name, value }));
    const response = await fetch(request.url, { method, headers: request.headers ?? {}, body: request.body ?? null, redirect: 'manual' });
    const text = await response.text();
    const responseHeaders = [...response.headers].map(([name, value]) => ({ name, value }));
    entries.push({
      startedDateTime: new Date().toISOString(), time: 1,
      request: {
        method, url: request.url, httpVersion: 'HTTP/1.1', headers, queryString: [], cookies: [], headersSize: -1, bodySize: request.body?.length ?? 0,
        ...(request.body === undefined ? {} : { postData: { mimeType: request.headers?.['Content-Type'] ?? 'text/plain', text: request.body } }),
      },
      response: {
        status: response.status, statusText: response.statusText, httpVersion: 'HTTP/1.1', headers: responseHeaders, cookies: [],
        content: { size: text.length, mimeType: response.headers.get('content-type') ?? '', text }, redirectURL: response.headers.get('location') ?? '', headersSize: -1, bodySize: text.length,
      },
      cache: {}, timings: { send: 0, wait: 1, receive: 0 },
    });
  }
  return { log: { version: '1.2', creator: { name: 'multiauth tests', version: '1' }, entries } };
}
