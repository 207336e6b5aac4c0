import { existsSync } from 'node:fs';
import { launchBrowserForCli } from '../../../../src/runtime/protocols/browser/launch.js';
import { startForwardProxy } from '../../../support/proxy.js';
import { expect, test } from './support.js';

const CHROMIUM = [process.env.MULTIAUTH_BROWSER_PATH, '/usr/lib/chromium/chromium', '/usr/bin/chromium'].find(
  (path): path is string => !!path && existsSync(path),
);

test('launches headless chromium from --browser-path, through the proxy when given', async ({ pages }) => {
  const proxy = await startForwardProxy();
  const { browser, close } = await launchBrowserForCli({ browserPath: CHROMIUM, env: {}, proxy: proxy.url });
  try {
    const page = await browser.newPage();
    await page.goto(`${pages.url}/help.html`);
    expect(await page.title()).toBe('Help');
    expect(proxy.seen).toContain(`GET ${pages.url}/help.html`);
  } finally {
    await close();
    await proxy.close();
  }
  expect(browser.isConnected()).toBe(false);
});

test('MULTIAUTH_BROWSER_PATH is used when --browser-path is not given', async () => {
  const { browser, close } = await launchBrowserForCli({ env: { MULTIAUTH_BROWSER_PATH: CHROMIUM } });
  expect(browser.version()).toMatch(/^\d+\./);
  await close();
});

test('a browser path that does not exist is a usage error naming it', async () => {
  await expect(launchBrowserForCli({ browserPath: '/nowhere/chromium', env: { MULTIAUTH_BROWSER_PATH: CHROMIUM } })).rejects.toMatchObject({
    code: 'CLI_USAGE',
    message: 'no browser at /nowhere/chromium',
  });
});
