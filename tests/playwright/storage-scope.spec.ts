import { expect, test } from '@playwright/test';
import type { BrowserContext } from 'playwright-core';
import { restoreBrowserStorage } from '../../src/playwright/browser-storage.js';
import { resolveScope } from '../../src/playwright/scope.js';
import { compileOriginGlob, reachesOrigin } from '../../src/core/origin-glob.js';
import { startHttpServer, type RunningServer } from '../support/servers/node-http.js';
import { makeTestSession } from '../support/session.js';

// Issue 23, item 5: static local_storage / session_storage credentials went to every origin as
// soon as the scope was a path glob (`http://host/api/**` became `*`): a narrower scope exposed
// more. Storage belongs to an origin, so they go to the origins the scope's globs reach.

const session = makeTestSession({
  scopeStorage: { localStorage: [{ name: 'api.token', value: 'static-local-secret' }], sessionStorage: [{ name: 'msal.idtoken', value: 'static-session-secret' }] },
});

let app: RunningServer;
let other: RunningServer;

test.beforeAll(async () => {
  const page = (_req: unknown, res: import('node:http').ServerResponse) => {
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><title>page</title>');
  };
  [app, other] = await Promise.all([startHttpServer(page), startHttpServer(page)]);
});

test.afterAll(async () => {
  await Promise.all([app?.close(), other?.close()]);
});

/** What a page of `url` finds in its storage once the context is prepared for `scope`. */
async function storageAt(context: BrowserContext, url: string): Promise<{ local: string | null; session: string | null }> {
  const page = await context.newPage();
  await page.goto(url);
  const found = await page.evaluate(() => ({ local: localStorage.getItem('api.token'), session: sessionStorage.getItem('msal.idtoken') }));
  await page.close();
  return found;
}

async function reached(browser: import('@playwright/test').Browser, scope: string[], baseURL?: string): Promise<{ app: boolean; other: boolean }> {
  const context = await browser.newContext();
  try {
    await restoreBrowserStorage(context, session, resolveScope(scope, baseURL));
    const [atApp, atOther] = [await storageAt(context, `${app.url}/`), await storageAt(context, `${other.url}/`)];
    for (const found of [atApp, atOther]) {
      // Both items or neither: one rule for localStorage and sessionStorage.
      expect(found.local === null).toBe(found.session === null);
    }
    if (atApp.local !== null) expect(atApp).toEqual({ local: 'static-local-secret', session: 'static-session-secret' });
    return { app: atApp.local !== null, other: atOther.local !== null };
  } finally {
    await context.close();
  }
}

test('a path glob puts storage credentials in its own origin, not in every origin', async ({ browser }) => {
  expect(await reached(browser, [`${app.url}/api/**`])).toEqual({ app: true, other: false });
  // A wildcard path in the middle, braces, an upper-case host: still the one origin.
  expect(await reached(browser, [`${app.url}/*/v{1,2}/**`])).toEqual({ app: true, other: false });
  expect(await reached(browser, [`${app.url.replace('http://', 'HTTP://')}/api/**`])).toEqual({ app: true, other: false });
  // A relative glob is on baseURL's origin, as context.route reads it.
  expect(await reached(browser, ['/api/**'], `${other.url}/app`)).toEqual({ app: false, other: true });
});

test('storage credentials reach every origin a glob reaches, and only those', async ({ browser }) => {
  const appPort = new URL(app.url).port;
  expect(await reached(browser, [`http://127.0.0.1:{${appPort},1}/**`])).toEqual({ app: true, other: false });
  expect(await reached(browser, [app.url, `${other.url}/api/**`])).toEqual({ app: true, other: true });
  // A glob whose origin is a wildcard reaches every origin: it covers every origin's /api/.
  expect(await reached(browser, ['**/api/**'])).toEqual({ app: true, other: true });
  // Without scope: baseURL's origin; without either, every page (docs/format.md).
  expect(await reached(browser, [], `${app.url}/app`)).toEqual({ app: true, other: false });
  expect(await reached(browser, [])).toEqual({ app: true, other: true });
  // A glob that matches no URL of either origin puts them nowhere.
  expect(await reached(browser, ['*/api/**'])).toEqual({ app: false, other: false });
});

test('origin globs: what each pattern reaches', () => {
  const reaches = (glob: string, origin: string) => reachesOrigin(compileOriginGlob(glob)!, origin);
  expect(reaches('https://*.app.test/api/**', 'https://eu.app.test')).toBe(true);
  expect(reaches('https://*.app.test/api/**', 'https://app.test')).toBe(false);
  expect(reaches('https://*.app.test/api/**', 'https://evil.test')).toBe(false);
  // `*` stops at `/`: a host glob cannot stretch over a path to another origin.
  expect(reaches('https://*/app.test/**', 'https://evil.test')).toBe(true);
  expect(reaches('https://*app.test/**', 'https://evil.test')).toBe(false);
  expect(reaches('https://app.test:*/**', 'https://app.test:8443')).toBe(true);
  expect(reaches('https://app.test/**', 'https://app.test.evil.test')).toBe(false);
  expect(reaches('http{,s}://app.test/**', 'http://app.test')).toBe(true);
  expect(reaches('http{,s}://app.test/**', 'https://app.test')).toBe(true);
  expect(reaches('http{,s}://app.test/**', 'ftp://app.test')).toBe(false);
  expect(reaches('https://app.test', 'https://app.test')).toBe(false); // no path: matches only a URL without one
  expect(reaches('https://app\\.test/**', 'https://app.test')).toBe(true);
  expect(reaches('https://app.test/**/x', 'https://app.test')).toBe(true);
  // Globs Playwright refuses reach nothing.
  expect(compileOriginGlob('https://{a,{b}}.test/**')).toBeUndefined();
  expect(compileOriginGlob('https://{a.test/**')).toBeUndefined();
  expect(compileOriginGlob('https://a}.test/**')).toBeUndefined();
  // Linear: a long pattern of stars over a long origin answers at once.
  const started = Date.now();
  expect(reaches(`https://${'*a'.repeat(2000)}b/**`, `https://${'a'.repeat(250)}`)).toBe(false);
  expect(Date.now() - started).toBeLessThan(2000);
});
