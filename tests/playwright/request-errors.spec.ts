import { join } from 'node:path';
import { test, expect, MULTI_CONFIG } from './support.js';
import { runInlineProject } from '../support/inline-project.js';
import { findLeaks, sessionSecrets } from '../audit/secrets.js';

test.describe.configure({ timeout: 180_000 });

// Issue 13, item 4: Playwright's own errors list the request's headers in their call log; those of
// requests sent for a user reach the report masked.
test("a failing authedRequest call shows Playwright's call log with the injected token masked", async ({ demoEnv }) => {
  const result = await runInlineProject(
    {
      'multiauth.yaml': MULTI_CONFIG,
      'a.spec.ts': `
import { test } from 'playwright-multiauth';
test.use({ authUser: 'alice' });
test('nothing listens there', async ({ authedRequest }) => {
  await authedRequest.get('http://127.0.0.1:9/items');
});
`,
    },
    { env: { ...demoEnv, MULTIAUTH_CACHE: 'on' } },
  );
  expect(result.failed).toBe(1);
  expect(result.output).toMatch(/apiRequestContext\.\w+: connect ECONNREFUSED/);
  // The call log lists the headers it sent, the token among them, masked.
  expect(result.output).toMatch(/- Authorization: \*{8}\s/);
  const tokens = sessionSecrets(join(result.dir, '.auth'));
  expect(tokens.length).toBeGreaterThan(0);
  expect(findLeaks([{ name: 'output', text: result.output }], tokens)).toEqual([]);
});
