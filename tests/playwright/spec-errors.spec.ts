import { test, expect } from './support.js';
import { inlineConfig, projectResults, runInlineProject, type InlineResult } from '../support/inline-project.js';
import { STACK_FRAME } from '../support/cli.js';

// Errors that reach a user's spec keep their class and code, so that a test can match on them
// (docs/errors.md), with every secret masked and no stack trace for what is not a bug.

test.describe.configure({ timeout: 180_000 });

const WRONG_PASSWORD = 'bob-WRONG-pw-5xQ';

/** The demo's token endpoint answers 401 to bob's wrong password, echoing it back as careless servers do. */
const CONFIG = `
presets:
  - type: http
    request:
      url: \${DEMO_URL}/auth/token
      method: POST
      body: { username: "{{username}}", password: "{{password}}" }
    extractions:
      - { name: token, location: body, key: data.auth.access_token }
    injections:
      - { location: header, key: Authorization, prefix: Bearer, variable: token }
    users:
      - { username: alice, password: alice-password }
      - { username: bob, password: ${WRONG_PASSWORD} }
`;

// Both tests read one child run: the failed sign-in (project `signin`) and the config error
// (project `invalid`, its config in a folder of its own), side by side.
test.describe('one run, a project each', () => {
  test.describe.configure({ mode: 'default' });
  let result: InlineResult;
  test.beforeAll(async ({ demo }) => {
    // A hook's timeout is not the file's: the run takes as long as a test of its own did.
    test.setTimeout(180_000);
    demo.reset();
    result = await runInlineProject(
      {
        'playwright.config.ts': inlineConfig(`projects: [
    { name: 'signin', testMatch: /(catch|fail)\\.spec\\.ts/ },
    { name: 'invalid', testMatch: /invalid\\.spec\\.ts/, use: { authConfig: 'invalid/multiauth.yaml' } },
  ],`),
        'multiauth.yaml': CONFIG,
        'catch.spec.ts': `
import { test, expect, MultiAuthError } from 'playwright-multiauth';
test.use({ authUser: 'alice' });
test('signInAs bob fails with AUTH_HTTP_STATUS', async ({ signInAs }) => {
  const e = await signInAs('bob').catch((error: unknown) => error);
  expect(e).toBeInstanceOf(MultiAuthError);
  const error = e as MultiAuthError;
  expect(error.code).toBe('AUTH_HTTP_STATUS');
  expect(error.context).toMatchObject({ user: 'bob', status: 401 });
  expect(error.message).toContain('while signing in user "bob"');
  expect(error.message).toContain('********');
  expect(error.stack).not.toMatch(/\\n\\s+at /);
  expect(error.cause).toBeUndefined();
  const everything = [error.message, error.stack, error.hint, error.render(), JSON.stringify(error), JSON.stringify(error.context), ...error.details].join('\\n');
  expect(everything).not.toContain('${WRONG_PASSWORD}');
});
`,
        'fail.spec.ts': `
import { test } from 'playwright-multiauth';
test.use({ authUser: 'bob' });
test('as bob', async ({ authedRequest }) => { await authedRequest.get('/whoami'); });
`,
        'invalid/multiauth.yaml': `${CONFIG}      - { username: carol, password: 42 }\n`,
        'invalid.spec.ts': `
import { test, expect, ConfigInvalidError } from 'playwright-multiauth';
test('signInAs fails with CONFIG_INVALID', async ({ signInAs }) => {
  const e = await signInAs('alice').catch((error: unknown) => error);
  expect(e).toBeInstanceOf(ConfigInvalidError);
  const error = e as ConfigInvalidError;
  expect(error.code).toBe('CONFIG_INVALID');
  expect(error.issues.map((issue) => [issue.location?.line, issue.message])).toEqual([[15, 'expected string, got number']]);
  expect(error.message).toMatch(/multiauth\\.yaml:15:\\d+ {2}presets\\[0\\]\\.users\\[2\\]\\.password: expected string, got number/);
});
`,
      },
      { env: { DEMO_URL: demo.url } },
    );
  });

  test('a failed sign-in reaches the spec as a MultiAuthError with its code, masked, without a stack', () => {
    expect(projectResults(result).signin, result.output).toMatchObject({ passed: 1, failed: 1 });
    // The failing test's report: what happened, where, what to do; no frames, no password.
    expect(result.output).toMatch(/MultiAuthError: playwright-multiauth: the server answered HTTP 401[\s\S]*while signing in user "bob"[\s\S]*\[AUTH_HTTP_STATUS\]/);
    expect(result.output).not.toMatch(STACK_FRAME);
    expect(result.output).not.toContain(WRONG_PASSWORD);
    expect(JSON.stringify(result.report)).not.toContain(WRONG_PASSWORD);
  });

  test('a config error reaches the spec as a ConfigInvalidError with its located issues', () => {
    expect(projectResults(result).invalid, result.output).toMatchObject({ passed: 1, failed: 0 });
  });
});
