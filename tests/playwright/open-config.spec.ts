import { test, expect } from '@playwright/test';
import { RESERVED_PROCEDURE_CONFIG } from '../support/config-texts.js';
import { runInlineProject } from '../support/inline-project.js';
import { runCli, STACK_FRAME } from '../support/cli.js';
import { removeTempDirs, tempDir } from '../support/temp-files.js';

// The CLI, the fixtures and the role matrix open a config the same way (src/sessions/open-config.ts):
// these run each of them as users do, on real files.

test.describe.configure({ timeout: 180_000 });
test.afterAll(removeTempDirs);

const NOT_FOUND = /no multiauth\.yaml, multiauth\.yml or multiauth\.json in \S+/;

test('no config: the CLI, the fixtures and authUsers all name multiauth.yml, each with its own hint', async () => {
  const cli = runCli(['validate'], { cwd: tempDir() });
  expect(cli.code).toBe(2);
  expect(cli.stderr).toMatch(NOT_FOUND);
  expect(cli.stderr).toContain('pass the config file with -c FILE');

  const fixtures = await runInlineProject({
    'a.spec.ts': `
import { test } from 'playwright-multiauth';
test.use({ authUser: 'alice' });
test('signed in', async ({ authedRequest }) => { await authedRequest.get('http://127.0.0.1:9/'); });
`,
  });
  expect(fixtures.failed).toBe(1);
  expect(fixtures.output).toMatch(NOT_FOUND);
  expect(fixtures.output).toContain("test.use({ authConfig: '...' }) or MULTIAUTH_CONFIG");

  const matrix = await runInlineProject({
    'a.spec.ts': `
import { test, authUsers } from 'playwright-multiauth';
for (const user of authUsers()) test(user, () => {});
`,
  });
  expect(matrix.exitCode).not.toBe(0);
  expect(matrix.output).toMatch(NOT_FOUND);
  expect(matrix.output).toContain("authUsers({ config: '...' })");

  for (const output of [cli.stderr, fixtures.output, matrix.output]) expect(output).not.toMatch(STACK_FRAME);
});

test('the fixtures and authUsers locate a compile error at file:line:col, as multiauth validate does', async () => {
  const result = await runInlineProject({
    // A procedure named like the one the http preset compiles to: only compiling finds it.
    'multiauth.yaml': RESERVED_PROCEDURE_CONFIG,
    'a.spec.ts': `
import { test } from 'playwright-multiauth';
test.use({ authUser: 'alice' });
test('signed in', async ({ authedRequest }) => { await authedRequest.get('http://127.0.0.1:9/'); });
`,
  });
  const located = /multiauth\.yaml:9:11 {2}procedures\[0\]\.name: procedure name "preset\[0\]:http" is reserved for a preset/;
  expect(result.failed).toBe(1);
  expect(result.output).toMatch(located);
  expect(result.output).not.toMatch(STACK_FRAME);

  // The role matrix opens the config in a child process (src/sessions/digest-in-child.ts): its
  // errors come back whole, with their class and code.
  const matrix = await runInlineProject({
    'multiauth.yaml': RESERVED_PROCEDURE_CONFIG,
    'a.spec.ts': `
import { test, authUsers, MultiAuthError } from 'playwright-multiauth';
let users: string[] = [];
try {
  users = authUsers();
} catch (error) {
  console.log('class:', error instanceof MultiAuthError, 'code:', (error as MultiAuthError).code);
  throw error;
}
for (const user of users) test(user, () => {});
`,
  });
  expect(matrix.exitCode).not.toBe(0);
  expect(matrix.output).toContain('class: true code: CONFIG_INVALID');
  expect(matrix.output).toMatch(located);
  expect(matrix.output).not.toMatch(STACK_FRAME);

  // Thrown while playwright.config.ts loads, Playwright prints the error with util.inspect: the
  // message alone, not the error's fields as raw objects after it.
  const config = await runInlineProject({
    'multiauth.yaml': RESERVED_PROCEDURE_CONFIG,
    'playwright.config.ts': `import { defineConfig } from '@playwright/test';
import { authProjects } from 'playwright-multiauth';
export default defineConfig({ outputDir: 'test-results', projects: authProjects({ name: 'api' }) });
`,
    'a.spec.ts': `import { test } from 'playwright-multiauth';\ntest('x', () => {});\n`,
  });
  expect(config.exitCode).not.toBe(0);
  expect(config.output).toMatch(located);
  expect(config.output).not.toMatch(/code: 'CONFIG_INVALID'|issues: \[/);
  expect(config.output).not.toMatch(STACK_FRAME);
});
