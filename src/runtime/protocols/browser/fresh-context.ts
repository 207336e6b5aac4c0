import type { BrowserContextOptions } from 'playwright-core';

/**
 * Every option of a browser context, each given as undefined. Playwright Test fills each option a
 * `newContext` call leaves out with the running test's (its instrumentation checks `key in
 * options`): in the middle of a test that is the signed-in test's `storageState`, whose cookies
 * hold an identity provider's own session, its `httpCredentials` and `clientCertificates`. A
 * sign-in given those would skip the provider's login form. Naming every key keeps them out; the
 * type makes a Playwright version with a new option fail to compile until it is listed.
 */
const NO_TEST_OPTIONS: Record<keyof BrowserContextOptions, undefined> = {
  acceptDownloads: undefined,
  baseURL: undefined,
  bypassCSP: undefined,
  clientCertificates: undefined,
  colorScheme: undefined,
  contrast: undefined,
  deviceScaleFactor: undefined,
  extraHTTPHeaders: undefined,
  forcedColors: undefined,
  geolocation: undefined,
  hasTouch: undefined,
  httpCredentials: undefined,
  ignoreHTTPSErrors: undefined,
  isMobile: undefined,
  javaScriptEnabled: undefined,
  locale: undefined,
  logger: undefined,
  offline: undefined,
  permissions: undefined,
  proxy: undefined,
  recordHar: undefined,
  recordVideo: undefined,
  reducedMotion: undefined,
  screen: undefined,
  serviceWorkers: undefined,
  storageState: undefined,
  strictSelectors: undefined,
  timezoneId: undefined,
  userAgent: undefined,
  viewport: undefined,
};

/**
 * The options of a sign-in's browser context: nothing but the proxy, whoever runs the browser.
 * Inside Playwright Test, a context opened with these starts empty, in the middle of a test as at
 * its start (no storage, credentials or certificates of the test).
 *
 * @example
 * const context = await browser.newContext(freshContextOptions('http://proxy.test:3128'));
 */
export function freshContextOptions(proxy?: string): BrowserContextOptions {
  return { ...NO_TEST_OPTIONS, ...(proxy ? { proxy: { server: proxy } } : {}) };
}
