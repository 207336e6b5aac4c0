import { test, expect } from './support.js';
import { runInlineProject } from '../support/inline-project.js';

test.describe.configure({ timeout: 180_000 });

// Issue 17, item 4: single-page apps keep their tokens in sessionStorage (MSAL) or IndexedDB
// (Firebase), which Playwright's storageState does not carry (sessionStorage) or only on request
// (IndexedDB). The demo's /spa/login keeps the token where ?store= says; /spa/app shows
// [data-signed-in] only when it finds one that works.
function recordedLogin(store: 'session' | 'indexeddb'): string {
  return `
        project:
          tests:
            - id: t
              name: sign in
              commands:
                - { id: c1, command: open, target: "\${DEMO_URL}/spa/login?store=${store}" }
                - { id: c2, command: type, target: "id=username", value: "\${username}" }
                - { id: c3, command: type, target: "id=password", value: "{{password}}" }
                - { id: c4, command: click, target: "css=button[type=submit]" }
                - { id: c5, command: waitForElementPresent, target: "css=[data-signed-in]", value: "10000" }`;
}

const CONFIG = `
presets:
  - type: webdriver
    wait_for_seconds: 10
    extractions:
      - { name: token, location: browser_session_storage, key: msal.idtoken, origin: "\${DEMO_URL}" }
    injections:
      - { location: header, key: Authorization, prefix: Bearer, variable: token }
    users:
      - username: alice
        password: alice-password${recordedLogin('session')}
  - type: webdriver
    wait_for_seconds: 10
    users:
      - username: bob
        password: bob-password${recordedLogin('indexeddb')}
  - type: http
    request: { url: "\${DEMO_URL}/auth/token", method: POST, body: { username: "{{username}}", password: "{{password}}" } }
    extractions:
      - { name: token, location: body, key: data.auth.access_token }
    injections:
      - { location: browser_session_storage, origin: "\${DEMO_URL}", key: msal.idtoken, variable: token }
    users:
      - { username: carol, password: carol-password }
`;

const appShows = (store: string) => `
  await page.goto('/spa/app?store=${store}');
  await expect(page.locator('#status')).toHaveAttribute('data-signed-in', user);
  const other = await page.context().newPage();
  await other.goto('/spa/app?store=${store}');
  await expect(other.locator('#status')).toHaveAttribute('data-signed-in', user);`;

const SPEC = `
import { test, expect } from 'playwright-multiauth';
for (const [user, store] of [['alice', 'session'], ['bob', 'indexeddb'], ['carol', 'session']]) {
  for (const round of [1, 2]) {
    test.describe(() => {
      test.use({ authUser: user });
      test(user + ' opens the app signed in, round ' + round, async ({ page }) => {
        ${appShows('${store}').replaceAll('${store}', "' + store + '")}
      });
    });
  }
}
test('without a user the app is signed out', async ({ page }) => {
  await page.goto('/spa/app?store=session');
  await expect(page.locator('#status')).toHaveAttribute('data-signed-out', '');
  await page.goto('/spa/app?store=indexeddb');
  await expect(page.locator('#status')).toHaveAttribute('data-signed-out', '');
});
test.describe(() => {
  test.use({ authUser: 'alice' });
  test('alice: the token read from sessionStorage signs her API calls', async ({ authedRequest }) => {
    expect((await (await authedRequest.get('/whoami')).json()).user).toBe('alice');
  });
});
`;

// Issue 17, item 6: the vendor's `session_storage` credentials: static items in every page of the scope.
const STATIC_USER = (token: string) => `
users:
  - name: dave
    credentials:
      session_storage: { msal.idtoken: "${token}" }
      cookies:
        - { name: theme, value: dark, domain: 127.0.0.1, path: /whoami, same_site: Lax }
`;

const STATIC_SPEC = `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'dave' });
test('dave: static session_storage credentials sign the app in', async ({ page }) => {
  const user = 'dave';
  ${appShows('session')}
});
`;

test('sessionStorage and IndexedDB of a browser sign-in, and storage injections, sign the app\'s pages in', async ({ demo, demoEnv }) => {
  const token = ((await (await fetch(`${demo.url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'dave', password: 'dave-password' }) })).json()) as { data: { auth: { access_token: string } } }).data.auth.access_token;
  demo.clear();
  const result = await runInlineProject(
    { 'multiauth.yaml': CONFIG + STATIC_USER(token), 'spa.spec.ts': SPEC, 'static.spec.ts': STATIC_SPEC },
    { env: demoEnv },
  );
  expect(result.failed, result.output).toBe(0);
  expect(result.passed).toBe(9);
  // Each user signed in once, in a browser or over HTTP, whatever the number of tests and pages.
  expect(demo.counters.signIns).toEqual({ alice: 1, bob: 1, carol: 1 });
});
