import { test, expect } from '@playwright/test';
import { MULTI_CONFIG } from './support.js';
import { RESERVED_PROCEDURE_CONFIG } from '../support/config-texts.js';
import { inlineConfig, projectResults, runInlineProject, type InlineResult, type ProjectResult } from '../support/inline-project.js';
import { runCli, STACK_FRAME } from '../support/cli.js';
import { removeTempDirs, tempDir } from '../support/temp-files.js';

// The CLI, the fixtures and the role matrix open a config the same way (src/sessions/open-config.ts):
// these run each of them as users do, on real files.

// Each of the three child runs below is shared by both tests (the file's tests run in order in
// one worker): the fixtures' two cases are two projects of one run (no config; a config that does
// not compile), the role matrix's two cases two spec files of one run (each failing as it loads:
// Playwright reports every file's load error), and playwright.config.ts's case a run of its own
// (an error there stops the run before any file loads). The role matrix's run also holds
// tests/playwright/role-matrix.spec.ts's unknown user, which fails as its file loads too.
test.describe.configure({ mode: 'default', timeout: 180_000 });
test.afterAll(removeTempDirs);

const NOT_FOUND = /no multiauth\.yaml, multiauth\.yml or multiauth\.json in \S+/;
const LOCATED = /multiauth\.yaml:9:11 {2}procedures\[0\]\.name: procedure name "preset\[0\]:http" is reserved for a preset/;

/** A spec of alice's that needs her session: the fixtures open the config for it. */
const ALICE_SPEC = `
import { test } from 'playwright-multiauth';
test.use({ authUser: 'alice' });
test('signed in', async ({ authedRequest }) => { await authedRequest.get('http://127.0.0.1:9/'); });
`;

let fixtures: InlineResult;
let fixtureProjects: Record<string, ProjectResult>;
let matrix: InlineResult;
let config: InlineResult;

test.beforeAll(async () => {
  // The three runs together take as long as the two tests did: a hook's timeout is not the file's.
  test.setTimeout(360_000);
  // No multiauth.yaml beside the Playwright config: project `none` looks there; project
  // `reserved` is told where its config is, one that only compiling finds wrong (a procedure
  // named like the one the http preset compiles to).
  // One worker: nothing here is about workers, and the second would be a process more.
  fixtures = await runInlineProject({
    'playwright.config.ts': inlineConfig(`projects: [
    { name: 'none', testMatch: 'none.spec.ts' },
    { name: 'reserved', testMatch: 'reserved.spec.ts', use: { authConfig: 'reserved/multiauth.yaml' } },
  ],`),
    'reserved/multiauth.yaml': RESERVED_PROCEDURE_CONFIG,
    'none.spec.ts': ALICE_SPEC,
    'reserved.spec.ts': ALICE_SPEC,
  }, { args: ['--workers=1'] });
  fixtureProjects = projectResults(fixtures);
  // The role matrix opens the config in a child process (src/sessions/digest-in-child.ts): its
  // errors come back whole, with their class and code.
  matrix = await runInlineProject({
    'reserved/multiauth.yaml': RESERVED_PROCEDURE_CONFIG,
    'none.spec.ts': `
import { test, authUsers } from 'playwright-multiauth';
for (const user of authUsers()) test(user, () => {});
`,
    'reserved.spec.ts': `
import { test, authUsers, MultiAuthError } from 'playwright-multiauth';
let users: string[] = [];
try {
  users = authUsers({ config: 'reserved/multiauth.yaml' });
} catch (error) {
  console.log('class:', error instanceof MultiAuthError, 'code:', (error as MultiAuthError).code);
  throw error;
}
for (const user of users) test(user, () => {});
`,
    // A config that has users, none of them this one (beside none.spec.ts's missing config, so named).
    'unknown/multiauth.yaml': MULTI_CONFIG,
    'unknown.spec.ts': `
import { test, authUsers } from 'playwright-multiauth';
for (const user of authUsers({ config: 'unknown/multiauth.yaml', users: ['mallory'] })) test(user, () => {});
`,
  }, { env: { DEMO_URL: 'http://127.0.0.1:9' } });
  // Thrown while playwright.config.ts loads, Playwright prints the error with util.inspect.
  config = await runInlineProject({
    'multiauth.yaml': RESERVED_PROCEDURE_CONFIG,
    'playwright.config.ts': `import { defineConfig } from '@playwright/test';
import { authProjects } from 'playwright-multiauth';
export default defineConfig({ outputDir: 'test-results', projects: authProjects({ name: 'api' }) });
`,
    'a.spec.ts': `import { test } from 'playwright-multiauth';\ntest('x', () => {});\n`,
  });
});

test('no config: the CLI, the fixtures and authUsers all name multiauth.yml, each with its own hint', async () => {
  const cli = runCli(['validate'], { cwd: tempDir() });
  expect(cli.code).toBe(2);
  expect(cli.stderr).toMatch(NOT_FOUND);
  expect(cli.stderr).toContain('pass the config file with -c FILE');

  expect(fixtureProjects.none, fixtures.output).toMatchObject({ passed: 0, failed: 1 });
  expect(fixtures.output).toMatch(NOT_FOUND);
  expect(fixtures.output).toContain("test.use({ authConfig: '...' }) or MULTIAUTH_CONFIG");

  expect(matrix.exitCode).not.toBe(0);
  expect(matrix.output).toMatch(NOT_FOUND);
  expect(matrix.output).toContain("authUsers({ config: '...' })");

  for (const output of [cli.stderr, fixtures.output, matrix.output]) expect(output).not.toMatch(STACK_FRAME);
});

test('the fixtures and authUsers locate a compile error at file:line:col, as multiauth validate does', () => {
  expect(fixtureProjects.reserved, fixtures.output).toMatchObject({ passed: 0, failed: 1 });
  expect(fixtures.output).toMatch(LOCATED);
  expect(fixtures.output).not.toMatch(STACK_FRAME);

  expect(matrix.exitCode).not.toBe(0);
  expect(matrix.output).toContain('class: true code: CONFIG_INVALID');
  expect(matrix.output).toMatch(LOCATED);
  expect(matrix.output).not.toMatch(STACK_FRAME);

  // Playwright prints the message alone, not the error's fields as raw objects after it.
  expect(config.exitCode).not.toBe(0);
  expect(config.output).toMatch(LOCATED);
  expect(config.output).not.toMatch(/code: 'CONFIG_INVALID'|issues: \[/);
  expect(config.output).not.toMatch(STACK_FRAME);
});

test('an unknown user in authUsers fails the run with a clear message, not a stack', () => {
  expect(matrix.exitCode).not.toBe(0);
  expect(matrix.output).toContain('unknown user "mallory"');
  expect(matrix.output).toContain('Configured users: alice, bob, carol, dave.');
  expect(matrix.output).not.toMatch(/at .*role-matrix\.js/);
  expect(matrix.output).not.toMatch(STACK_FRAME);
});
