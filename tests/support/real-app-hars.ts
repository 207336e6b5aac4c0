import { expect, type Browser } from '@playwright/test';
import { recordHar } from './har-record.js';
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
 * const har = await recordDjangoSignIn(browser, django, join(dir, 'django.har'));
 */
export function recordDjangoSignIn(browser: Browser, django: DjangoServer, path: string): Promise<string> {
  return recordHar(browser, path, async (page) => {
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
 * const har = await recordJupyterSignIn(browser, jupyter, join(dir, 'jupyter.har'));
 */
export function recordJupyterSignIn(browser: Browser, jupyter: JupyterServer, path: string): Promise<string> {
  return recordHar(browser, path, async (page) => {
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
 * const har = await recordNodeRedSignIn(browser, red, join(dir, 'node-red.har'));
 */
export function recordNodeRedSignIn(browser: Browser, red: NodeRedServer, path: string): Promise<string> {
  return recordHar(browser, path, async (page) => {
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
 * const har = await recordNodeRedApiSignIn(browser, red, join(dir, 'node-red-api.har'));
 */
export function recordNodeRedApiSignIn(browser: Browser, red: NodeRedServer, path: string): Promise<string> {
  return recordHar(browser, path, async (page) => {
    await page.goto(`${red.url}/auth/login`);
    const status = await page.evaluate(async ({ username, password }) => {
      const grant = { client_id: 'node-red-admin', grant_type: 'password', scope: '*', username, password };
      const answer = await fetch('/auth/token', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(grant) });
      const { access_token: token } = (await answer.json()) as { access_token: string };
      const flows = await fetch('/flows', { headers: { Authorization: `Bearer ${token}` } });
      await flows.text();
      return flows.status;
    }, { username: red.username, password: red.password });
    expect(status).toBe(200);
  });
}
