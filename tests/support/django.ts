import { test as base } from '@playwright/test';
import { startDjango, type DjangoServer } from './servers/django.js';

/**
 * Playwright Test with a worker-scoped `django`: Debian's Django admin (servers/django.ts), started
 * once per worker (its project is migrated once per run) and stopped after the worker's last test.
 *
 * @example
 * test('the admin', async ({ django }) => { ... django.url ... });
 */
export const test = base.extend<object, { django: DjangoServer }>({
  django: [
    async ({}, use) => {
      const django = await startDjango();
      await use(django);
      await django.stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
});

export { expect } from '@playwright/test';

/**
 * A config's `validation` and `procedures` for a user of any role signing in through Django's
 * `LoginView` at `/accounts/login/` (its CSRF hidden input, then the form POST, the `sessionid`
 * cookie), and one `users:` line for such a user.
 *
 * @example
 * const yaml = `${djangoLogin(django)}users:\n${djangoUser('viewer', django.roles.viewer)}\n`;
 */
export function djangoLogin(django: Pick<DjangoServer, 'url'>): string {
  return `validation: { url: "${django.url}/accounts/password_change/", match: id_old_password }
procedures:
  - name: django-login
    operations:
      - tech: http
        parameters: { url: "${django.url}/accounts/login/", method: GET }
        extractions:
          - { name: csrf, location: body, key: csrfmiddlewaretoken, regex: 'name="csrfmiddlewaretoken" value="([^"]+)"' }
      - tech: http
        parameters:
          url: "${django.url}/accounts/login/"
          method: POST
          headers: [{ name: Content-Type, values: [application/x-www-form-urlencoded] }]
          body: "csrfmiddlewaretoken={{csrf}}&username={{username}}&password={{password}}"
          follow_redirects: 0
        extractions:
          - { name: session, location: cookie, key: sessionid }
    injections:
      - { location: cookie, key: sessionid, variable: session }
`;
}

/** One `users:` line of {@link djangoLogin}'s procedure. */
export function djangoUser(name: string, { username, password }: { username: string; password: string }): string {
  return `  - { name: ${name}, procedure: django-login, credentials: { username: ${username}, password: ${password} } }`;
}
