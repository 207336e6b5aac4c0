import { expect, type Browser } from '@playwright/test';
import { pageFetch, recordHar } from './record-har.js';
import type { DjangoServer } from './servers/django.js';
import type { JupyterServer } from './servers/jupyter.js';
import type { NodeRedServer } from './servers/node-red.js';

// A person's sign-in through each application's own UI, recorded as a HAR: the input of
// `multiauth draft --har` for applications nobody here wrote. Each waits for what the app shows
// a signed-in user, then makes at least one signed-in request, so the drafter has one to learn from.

const UI_TIMEOUT = 30_000;

/**
 * Django's admin: the login form (CSRF hidden input and `csrftoken` cookie), then the user list,
 * a signed-in GET carrying the `sessionid` cookie.
 *
 * @example
 * const har = await recordDjangoSignIn(browser, django, dir); // dir/django.har
 */
export function recordDjangoSignIn(browser: Browser, django: DjangoServer, dir: string): Promise<string> {
  return recordHar(browser, dir, 'django.har', async (page) => {
    await page.goto(`${django.url}/admin/`);
    await page.fill('#id_username', django.username);
    await page.fill('#id_password', django.password);
    await page.click('input[type=submit]');
    await expect(page.locator('#user-tools')).toBeVisible({ timeout: UI_TIMEOUT });
    await page.goto(`${django.url}/admin/auth/user/`);
    await expect(page.locator('#result_list')).toBeVisible({ timeout: UI_TIMEOUT });
  });
}

/**
 * Jupyter Notebook: `/tree` redirects to the password form (`_xsrf` hidden input and cookie); once
 * signed in, the file list comes from `/api/contents`, called with the session cookie and
 * `X-XSRFToken`.
 *
 * @example
 * const har = await recordJupyterSignIn(browser, jupyter, dir); // dir/jupyter.har
 */
export function recordJupyterSignIn(browser: Browser, jupyter: JupyterServer, dir: string): Promise<string> {
  return recordHar(browser, dir, 'jupyter.har', async (page) => {
    await page.goto(`${jupyter.url}/tree`);
    await page.fill('#password_input', jupyter.password);
    const listed = page.waitForResponse((r) => r.url().includes('/api/contents') && r.status() === 200, { timeout: UI_TIMEOUT });
    await page.click('#login_submit');
    await listed;
    await expect(page.locator('#notebook_list')).toBeVisible({ timeout: UI_TIMEOUT });
    await page.waitForLoadState('networkidle', { timeout: UI_TIMEOUT });
  });
}

/**
 * Node-RED's editor: its login dialog posts an OAuth password grant to `/auth/token` (form-encoded,
 * from jQuery); the editor then loads `/settings` and `/flows` with `Authorization: Bearer`.
 *
 * @example
 * const har = await recordNodeRedSignIn(browser, red, dir); // dir/node-red.har
 */
export function recordNodeRedSignIn(browser: Browser, red: NodeRedServer, dir: string): Promise<string> {
  return recordHar(browser, dir, 'node-red.har', async (page) => {
    await page.goto(red.url);
    await page.fill('#node-dialog-login-username', red.username);
    await page.fill('#node-dialog-login-password', red.password);
    const flows = page.waitForResponse((r) => new URL(r.url()).pathname === '/flows' && r.status() === 200, { timeout: UI_TIMEOUT });
    await page.click('#node-dialog-login-submit');
    await (await flows).finished();
    await expect(page.locator('#red-ui-workspace')).toBeVisible({ timeout: UI_TIMEOUT });
    // Playwright writes a body into the HAR only once it has arrived; the editor's last calls must end first.
    await page.waitForLoadState('networkidle', { timeout: UI_TIMEOUT });
  });
}

/**
 * Node-RED's admin API as its `node-red-admin` command uses it, from a page of the app: a JSON
 * password grant to `/auth/token` (`client_id=node-red-admin`, `scope=*`), then `GET /flows` with
 * `Authorization: Bearer`.
 *
 * @example
 * const har = await recordNodeRedApiSignIn(browser, red, dir); // dir/node-red-api.har
 */
export function recordNodeRedApiSignIn(browser: Browser, red: NodeRedServer, dir: string): Promise<string> {
  return recordHar(browser, dir, 'node-red-api.har', async (page) => {
    await page.goto(`${red.url}/auth/login`);
    const grant = { client_id: 'node-red-admin', grant_type: 'password', scope: '*', username: red.username, password: red.password };
    const { access_token: token } = (await pageFetch(page, '/auth/token', { method: 'POST', json: grant })) as { access_token: string };
    const flows = await pageFetch(page, '/flows', { headers: { Authorization: `Bearer ${token}` } });
    expect(Array.isArray(flows), 'GET /flows with the token answers the flows').toBe(true);
  });
}
