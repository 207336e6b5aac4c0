import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from './support.js';
import { runInlineProject } from '../support/inline-project.js';
import { ROOT } from '../support/root.js';

test.describe.configure({ timeout: 180_000 });

// Issue 26: accessMatrix() in a spec. One child run covers the example (green), the demo's
// broken rule (GET /api/users/export forgets its admin check: two unexpected allows) and erin's
// row of the example without its validation (a deny there signs nobody in again).
const EXAMPLE = join(ROOT, 'examples', 'access-matrix', 'multiauth.yaml');
const BROKEN = readFileSync(EXAMPLE, 'utf8')
  .replace('    - name: delete a comment', '    - name: export users\n      url: ${DEMO_URL}/api/users/export\n    - name: delete a comment')
  .replace('erin: { list users: deny, "*": allow }', 'erin: { list users: deny, export users: deny, "*": allow }')
  // 403 counts as "signed out" here: the matrix's denies must still sign nobody in again.
  .replace('validation: {', 'reauth: { on_status: [401, 403] }\nvalidation: {');
// 403 counts as "signed out" and no validation keeps a session: only the matrix's own rule (a deny
// never signs in again) keeps erin's first cell, a 403 before any answered GET, from signing her in again.
const NO_VALIDATION = readFileSync(EXAMPLE, 'utf8').replace(/^validation: .*$/m, 'reauth: { on_status: [401, 403] }');

interface Result { status: string; errors: Array<{ message?: string }>; attachments: Array<{ name: string; contentType: string; body?: string }> }
interface Suite { title: string; specs: Array<{ title: string; tests: Array<{ results: Result[] }> }>; suites?: Suite[] }

test('one test per user and request, each through authedRequest; an unexpected allow fails with its cell; the matrix is attached', async ({ demo, demoEnv }) => {
  const result = await runInlineProject(
    {
      'example.spec.ts': `import { accessMatrix } from 'playwright-multiauth';\naccessMatrix({ config: ${JSON.stringify(EXAMPLE)} });\n`,
      'broken.yaml': BROKEN,
      'broken.spec.ts': `import { accessMatrix } from 'playwright-multiauth';\naccessMatrix({ config: 'broken.yaml' });\n`,
      'no-validation.yaml': NO_VALIDATION,
      'no-validation.spec.ts': `import { accessMatrix } from 'playwright-multiauth';\naccessMatrix({ config: 'no-validation.yaml', users: ['erin'] });\n`,
    },
    { env: { ...demoEnv, MULTIAUTH_CACHE_DIR: '.auth' } },
  );
  // example: 16 cells + the matrix; broken: 20 cells + the matrix, 2 of them unexpected; no-validation: erin's 4 cells + the matrix.
  expect(result.passed, result.output).toBe(17 + 19 + 5);
  expect(result.failed).toBe(2);

  const byFile = new Map<string, Map<string, Result>>();
  const visit = (suite: Suite, file: string, path: string[]): void => {
    for (const spec of suite.specs) byFile.get(file)?.set([...path, spec.title].join(' › '), spec.tests[0]?.results[0] as Result);
    for (const child of suite.suites ?? []) visit(child, file, [...path, child.title]);
  };
  for (const suite of result.report.suites as unknown as Suite[]) {
    byFile.set(suite.title, new Map());
    visit(suite, suite.title, []);
  }
  const broken = byFile.get('broken.spec.ts') as Map<string, Result>;
  const failed = [...broken].filter(([, r]) => r.status !== 'passed').map(([title]) => title);
  expect(failed).toEqual(['access matrix › erin › export users', 'access matrix › bob › export users']);
  const message = broken.get('access matrix › bob › export users')?.errors[0]?.message ?? '';
  expect(message).toContain(`bob was allowed to GET ${demo.url}/api/users/export: expected deny — possible broken access control (HTTP 200)`);
  expect(message).toContain('Recommended fix: The application let this user do what access.expect says it must not');
  expect(message).toContain('[ACCESS_UNEXPECTED]');
  expect(message).not.toContain('while signing in');

  const attached = (file: string) => {
    const attachments = byFile.get(file)?.get('access matrix › access matrix (observed)')?.attachments ?? [];
    const text = (name: string) => Buffer.from(attachments.find((a) => a.name === name)?.body ?? '', 'base64').toString('utf8');
    return { html: text('access matrix.html'), markdown: text('access matrix.md') };
  };
  const shown = attached('broken.spec.ts');
  expect(shown.markdown).toContain('| export users | allow 200 | **unexpected allow 200** | **unexpected allow 200** | deny 401 |');
  expect(shown.markdown).toContain('20 cells: 18 as expected, 2 unexpected (2 unexpected allows)');
  expect(shown.html).toContain('<td class="unexpected" title="expected deny">unexpected allow 200</td>');
  expect(attached('example.spec.ts').markdown).toContain('16 cells: 16 as expected');

  // One sign-in per user and config (its reauth and validation are part of a session's cache key);
  // none of the 403s that the reauth of broken.yaml and no-validation.yaml calls "signed out" started
  // another, not even erin's first cell of no-validation.yaml, where no validation would have kept her.
  expect(demo.counters.signIns).toEqual({ alice: 2, erin: 3, bob: 2 });
  expect(byFile.get('no-validation.spec.ts')?.get('access matrix › erin › list users')?.status).toBe('passed');
  for (const secret of ['alice-password', 'erin-password', 'bob-password']) {
    expect(result.output).not.toContain(secret);
    expect(shown.html + shown.markdown).not.toContain(secret);
  }
});
