import type { MultiAuthError } from '../../../../src/core/errors.js';
import { launchDiscovered } from '../../../../src/runtime/protocols/browser/discover.js';
import { expect, test } from './support.js';

// ensure-deps installs Debian's chromium and its headless shell, where discovery looks.
const DEBIAN_CHROMIUM = '/usr/lib/chromium/chromium';
const DEBIAN_HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

test('when no browser starts, one error lists each one tried and the two ways to fix it', async () => {
  const tried: Array<string | undefined> = [];
  const error = await launchDiscovered(
    async (executablePath) => {
      tried.push(executablePath);
      throw new Error(`browserType.launch: Executable doesn't exist at ${executablePath ?? '/root/.cache/ms-playwright/chromium-1/chrome'}\n╔══ banner ══╗`);
    },
    { env: {}, chromium: true },
  ).catch((e: unknown) => e);
  expect(tried[0]).toBeUndefined();
  expect(tried.slice(1)).toContain(DEBIAN_CHROMIUM);
  expect(tried.indexOf(DEBIAN_HEADLESS_SHELL)).toBe(1);
  expect(error).toMatchObject({ code: 'BROWSER_STEP_FAILED', message: 'cannot start a browser for the browser sign-in steps' });
  const { details, hint } = error as MultiAuthError;
  expect(details[0]).toBe("tried Playwright's own browser: Executable doesn't exist at /root/.cache/ms-playwright/chromium-1/chrome");
  expect(details).toContain(`tried ${DEBIAN_CHROMIUM}: Executable doesn't exist at ${DEBIAN_CHROMIUM}`);
  expect(hint).toContain('npx playwright install chromium');
  expect(hint).toContain('launchOptions: { executablePath }');
});

test('a non-Chromium browser is Playwright\'s own only; a given executable is the only one tried', async () => {
  const tried: Array<string | undefined> = [];
  const fail = async (executablePath: string | undefined) => {
    tried.push(executablePath);
    throw new Error('no');
  };
  await launchDiscovered(fail, { env: {}, chromium: false }).catch(() => undefined);
  expect(tried).toEqual([undefined]);
  tried.length = 0;
  await launchDiscovered(fail, { given: DEBIAN_CHROMIUM, env: { MULTIAUTH_BROWSER_PATH: '/elsewhere' }, chromium: true }).catch(() => undefined);
  expect(tried).toEqual([DEBIAN_CHROMIUM]);
});

test("a headless launch tries Debian's headless shell before the full Chromium, and starts it; a headed one never tries the shell", async ({ pages }) => {
  const tried: Array<string | undefined> = [];
  const browser = await launchDiscovered(
    async (executablePath) => {
      tried.push(executablePath);
      if (executablePath === undefined) throw new Error("browserType.launch: Executable doesn't exist at /root/.cache/ms-playwright/chromium-1/chrome");
      return (await import('playwright-core')).chromium.launch({ executablePath });
    },
    { env: {}, chromium: true },
  );
  try {
    expect(tried).toEqual([undefined, DEBIAN_HEADLESS_SHELL]);
    const page = await browser.newPage();
    await page.goto(`${pages.url}/help.html`);
    expect(await page.title()).toBe('Help');
  } finally {
    await browser.close();
  }
  tried.length = 0;
  await launchDiscovered(async (executablePath) => {
    tried.push(executablePath);
    throw new Error('no');
  }, { env: {}, chromium: true, headless: false }).catch(() => undefined);
  expect(tried[0]).toBeUndefined();
  expect(tried).toContain(DEBIAN_CHROMIUM);
  expect(tried).not.toContain(DEBIAN_HEADLESS_SHELL);
});
