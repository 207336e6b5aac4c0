import { toStorageState } from '../../src/playwright/storage-state.js';
import { decodeJwtPayload } from '../../src/runtime/engine/jwt.js';
import { whoami } from '../support/whoami.js';
import { webdriverExample } from '../support/examples.js';
import { expect, signIn, test } from './support.js';
import { planFromYaml } from '../support/plan.js';

test('the webdriver example signs alice in through /login: sid cookie, localStorage token, Authorization header', async ({ demo, browser }) => {
  const { session } = await signIn(planFromYaml(webdriverExample(demo.url)), 'alice', browser);

  const sid = session.cookies.find((cookie) => cookie.name === 'sid');
  expect(sid).toMatchObject({ domain: '127.0.0.1', path: '/', httpOnly: true });
  expect(demo.state.sessions.get(sid?.value ?? '')).toBe('alice');

  const storage = session.origins.find((origin) => origin.origin === demo.url);
  const stored = storage?.localStorage.find((item) => item.name === 'access_token')?.value ?? '';
  expect(decodeJwtPayload(stored)).toMatchObject({ sub: 'alice', role: 'admin' });

  // The token the page sent in its Authorization header is the one it keeps in localStorage.
  expect(session.headers.Authorization).toEqual([`Bearer ${stored}`]);
  expect(session.variables.access_token).toBe(stored);
  expect(session.expiresAt).toBe((decodeJwtPayload(stored)?.exp as number) * 1000);
});

test('a page opened with the session\'s storage state is already signed in, without a new token', async ({ demo, browser }) => {
  const { session } = await signIn(planFromYaml(webdriverExample(demo.url)), 'alice', browser);
  const tokensBefore = demo.counters.endpoints['POST /app/token'];
  expect(tokensBefore).toBeGreaterThanOrEqual(1);

  const signedIn = await browser.newContext({ storageState: toStorageState(session, []) });
  const stranger = await browser.newContext();
  try {
    const page = await signedIn.newPage();
    await page.goto(`${demo.url}/app`);
    await expect(page.locator('#status')).toHaveAttribute('data-signed-in', 'alice');
    expect(new URL(page.url()).pathname).toBe('/app');
    // The app took its token from the restored localStorage instead of asking for one.
    expect(demo.counters.endpoints['POST /app/token']).toBe(tokensBefore);

    const other = await stranger.newPage();
    await other.goto(`${demo.url}/app`);
    expect(new URL(other.url()).pathname).toBe('/login');
  } finally {
    await signedIn.close();
    await stranger.close();
  }
});

test('API requests: the token from the page\'s Authorization header, injected, is alice; so is the sid cookie alone', async ({ demo, browser }) => {
  const { session } = await signIn(planFromYaml(webdriverExample(demo.url)), 'alice', browser);
  expect(await whoami(demo.url, session)).toEqual({ status: 200, user: 'alice', via: 'header', role: 'admin' });
  expect(await whoami(demo.url, { ...session, headers: {} })).toEqual({ status: 200, user: 'alice', via: 'cookie', role: 'admin' });
  expect(await whoami(demo.url, { ...session, headers: {}, cookies: [] })).toMatchObject({ status: 401 });
});

test('bob signs in with the name= and xpath= locators of the example, as a viewer', async ({ demo, browser }) => {
  const { session } = await signIn(planFromYaml(webdriverExample(demo.url)), 'bob', browser);
  expect(await whoami(demo.url, session)).toEqual({ status: 200, user: 'bob', via: 'header', role: 'viewer' });
});
