import { rmSync } from 'node:fs';
import { test as base, expect } from '@playwright/test';
import { MultiAuthError } from '../../src/core/errors.js';
import { Redactor } from '../../src/core/redactor.js';
import { authenticate } from '../../src/runtime/engine/authenticate.js';
import { planFromYaml } from '../support/plan.js';
import { startDjango, type DjangoServer } from '../support/servers/django.js';

// Issue 24, item 4, against an application nobody here wrote: Debian's Django admin. A wrong
// password gets 200 and the login form again; the error must quote Django's own words, through an
// http procedure and through a recorded browser login, and say the credentials were refused.

/** One Django per worker: starting a project (migrate included) takes seconds. */
const test = base.extend<object, { django: DjangoServer }>({
  django: [
    async ({}, use) => {
      const django = await startDjango();
      await use(django);
      await django.stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
});

const DJANGO_MESSAGE = 'Please enter the correct username and password';
const WRONG = 'not-the-admin-pass-55';

/** The admin's sign-in as two http steps: the form (CSRF cookie and token), then the POST. */
function httpConfig(django: DjangoServer, password: string, withCsrf = true): string {
  const form = withCsrf
    ? `      - tech: http
        parameters: { url: "${django.url}/admin/login/", method: GET }
        extractions:
          - { name: csrf, location: body, key: csrfmiddlewaretoken, regex: 'name="csrfmiddlewaretoken" value="([^"]+)"' }
`
    : '';
  return `
procedures:
  - name: django-admin
    operations:
${form}      - tech: http
        parameters:
          url: "${django.url}/admin/login/?next=/admin/"
          method: POST
          headers: [{ name: Content-Type, values: [application/x-www-form-urlencoded] }]
          body: "csrfmiddlewaretoken=${withCsrf ? '{{csrf}}' : 'none'}&username={{username}}&password={{password}}&next=/admin/"
          follow_redirects: 0
        extractions:
          - { name: session, location: cookie, key: sessionid }
    injections:
      - { location: cookie, key: sessionid, variable: session }
users:
  - name: admin
    credentials: { username: ${django.username}, password: ${password} }
    procedure: django-admin
    validation: { url: "${django.url}/admin/", status: [200] }
`;
}

/** The admin's sign-in as a recorded browser login. */
function browserConfig(django: DjangoServer, password: string): string {
  return `
presets:
  - type: webdriver
    wait_for_seconds: 15
    users:
      - username: ${django.username}
        password: ${password}
        project:
          tests:
            - id: t1
              name: admin login
              commands:
                - { id: c1, command: open, target: "${django.url}/admin/login/?next=/admin/" }
                - { id: c2, command: type, target: "id=id_username", value: "{{username}}" }
                - { id: c3, command: type, target: "id=id_password", value: "{{password}}" }
                - { id: c4, command: click, target: "css=input[type=submit]" }
                - { id: c5, command: waitForElementPresent, target: "id=user-tools" }
`;
}

async function failure(promise: Promise<unknown>): Promise<MultiAuthError> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(MultiAuthError);
  return error as MultiAuthError;
}

test('http procedure: a wrong password quotes Django\'s message and says the credentials were refused; the right one signs in', async ({ django }) => {
  const error = await failure(authenticate(planFromYaml(httpConfig(django, WRONG)), 'admin', { redactor: new Redactor() }));
  expect(error.code).toBe('EXTRACTION_NOT_FOUND');
  const text = error.render();
  expect(text).toContain(`the page says: "${DJANGO_MESSAGE}`);
  expect(error.hint).toMatch(/^The server answered the sign-in with its form again: the credentials were probably refused/);
  expect(text).not.toContain(WRONG);

  const session = await authenticate(planFromYaml(httpConfig(django, django.password)), 'admin', { redactor: new Redactor() });
  expect(session.cookies.map((c) => c.name)).toContain('sessionid');
});

test('http procedure: Django\'s 403 CSRF page is quoted by its sentence, not its CSS', async ({ django }) => {
  const error = await failure(authenticate(planFromYaml(httpConfig(django, django.password, false)), 'admin', { redactor: new Redactor() }));
  expect(error.code).toBe('AUTH_HTTP_STATUS');
  const text = error.render();
  expect(text).toContain('CSRF verification failed. Request aborted.');
  expect(text).not.toMatch(/padding|<style/);
});

test('recorded browser login: a wrong password stops waiting at once and quotes Django\'s message; the right one signs in', async ({ django, browser }) => {
  const started = Date.now();
  const error = await failure(authenticate(planFromYaml(browserConfig(django, WRONG)), django.username, { redactor: new Redactor(), browser }));
  expect(error.code).toBe('BROWSER_STEP_FAILED');
  expect(error.message).toContain(`the sign-in form is shown again with an error: "${DJANGO_MESSAGE}`);
  expect(error.hint).toMatch(/credentials were probably refused/);
  expect(Date.now() - started).toBeLessThan(10_000);
  expect(error.render()).not.toContain(WRONG);
  rmSync(/screenshot: (\S+\.png)$/.exec(error.message)?.[1] ?? '', { force: true });

  const session = await authenticate(planFromYaml(browserConfig(django, django.password)), django.username, { redactor: new Redactor(), browser });
  expect(session.cookies.map((c) => c.name)).toContain('sessionid');
});
