import { test, expect } from './support.js';
import { runInlineProject } from '../support/inline-project.js';
import { startLighttpd, type LighttpdServer } from '../support/servers/lighttpd.js';
import { webdriverExample } from '../support/examples.js';

test.describe.configure({ timeout: 180_000 });

test.describe('digest users', () => {
  let server: LighttpdServer;
  test.beforeAll(async () => {
    server = await startLighttpd();
  });
  test.afterAll(async () => server.stop());

  test('authedRequest answers digest challenges and pages use httpCredentials', async () => {
    const config = `
presets:
  - type: digest
    first_request: { url: "\${DIGEST_URL}${server.paths.md5}", method: GET }
    users:
      - { username: alice, password: "${server.users.alice}" }
`;
    const result = await runInlineProject(
      {
        'multiauth.yaml': config,
        'digest.spec.ts': `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'alice' });
test('alice through digest', async ({ authedRequest, page, authSession }) => {
  expect(authSession?.headers.Authorization).toBeUndefined();
  for (let i = 0; i < 3; i++) {
    const res = await authedRequest.get(process.env.DIGEST_URL + '${server.paths.md5}');
    expect(res.status()).toBe(200);
    expect(await res.json()).toMatchObject({ user: 'alice' });
  }
  const res = await page.goto(process.env.DIGEST_URL + '${server.paths.md5}');
  expect(res?.status()).toBe(200);
  await expect(page.locator('body')).toContainText('alice');
});
`,
      },
      { env: { DIGEST_URL: server.url } },
    );
    expect(result.output).toContain('1 passed');
    expect(result.output).not.toContain(server.users.alice!);
  });
});

test('a browser sign-in runs inside Playwright Test and its session opens pages signed in', async ({ demo, demoEnv }) => {
  const result = await runInlineProject(
    {
      'multiauth.yaml': webdriverExample(demo.url),
      'webdriver.spec.ts': `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'alice' });
test('alice signed in by her recorded login', async ({ page, authedRequest }) => {
  expect((await (await authedRequest.get('/whoami')).json()).user).toBe('alice');
  await page.goto('/app');
  await expect(page.locator('#status')).toHaveAttribute('data-signed-in', 'alice');
});
`,
    },
    { env: demoEnv },
  );
  expect(result.output).toContain('1 passed');
  expect(result.annotations['alice signed in by her recorded login']).toEqual([
    { type: 'multiauth-user', description: 'alice' },
    { type: 'multiauth', description: 'alice: signed in' },
  ]);
});
