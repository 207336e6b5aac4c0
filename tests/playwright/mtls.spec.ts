import { test, expect } from '@playwright/test';
import { runInlineProject, inlineConfig } from '../support/inline-project.js';
import { makePki, startMtlsServer, type MtlsServer, type TestPki } from '../support/mtls.js';

let pki: TestPki;
let server: MtlsServer;
test.beforeAll(async () => {
  pki = makePki('alice-client');
  server = await startMtlsServer(pki);
});
test.afterAll(async () => server.stop());

test('repeater_mtls users present the mtls certificate when signing in, in authedRequest and in pages', async () => {
  test.setTimeout(180_000);
  const config = `
mtls:
  - { origin: "\${MTLS_URL}", certPath: "${pki.clientCert}", keyPath: "${pki.clientKey}" }
procedures:
  - name: token-over-mtls
    operations:
      - tech: http
        parameters: { url: "\${MTLS_URL}/token", method: POST, insecure: true }
        extractions: [{ name: token, location: body, key: access_token }]
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: token }]
users:
  - { name: alice, procedure: token-over-mtls, repeater_mtls: true }
  - { name: bob, credentials: { headers: [{ name: X-Who, values: [bob] }] } }
`;
  const result = await runInlineProject(
    {
      'playwright.config.ts': inlineConfig().replace("use: {", 'use: { ignoreHTTPSErrors: true,'),
      'multiauth.yaml': config,
      'mtls.spec.ts': `
import { test, expect } from 'playwright-multiauth';
test.describe('alice', () => {
  test.use({ authUser: 'alice' });
  test('request and page present the certificate', async ({ authedRequest, page }) => {
    expect(await (await authedRequest.get(process.env.MTLS_URL + '/api')).json()).toEqual({ client: 'alice-client', authorization: 'Bearer mtls-alice-client' });
    await page.goto(process.env.MTLS_URL + '/page');
    await expect(page.locator('body')).toContainText('"client":"alice-client"');
  });
});
test.describe('bob', () => {
  test.use({ authUser: 'bob' });
  test('a user without repeater_mtls has no certificate', async ({ authedRequest }) => {
    await expect(authedRequest.get(process.env.MTLS_URL + '/api')).rejects.toThrow();
  });
});
`,
    },
    { env: { MTLS_URL: server.url } },
  );
  expect(result.output).toContain('2 passed');
  expect(server.seen.find((s) => s.path === '/token')).toEqual({ path: '/token', client: 'alice-client' });
  expect(server.seen.filter((s) => s.path === '/api').map((s) => s.client)).toEqual(['alice-client']);
  expect(server.seen.filter((s) => s.path === '/page').map((s) => s.client)).toEqual(['alice-client']);
});
