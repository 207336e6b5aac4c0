import { test, expect, MULTI_CONFIG } from './support.js';
import { runInlineProject } from '../support/inline-project.js';

test.describe.configure({ timeout: 120_000 });

// Issue 35, item 10: a spec written for the earlier signInAs, where `page` and `context` were
// opened in signInAs itself (`bob.page.goto(...)`), failed with "TypeError: bob.page.goto is not a
// function". Reading a Page or BrowserContext member on the promise now says what changed and what
// to write, at the spec's line; the promises still await, then, catch and finally as promises do.

const SPEC = `
import { test, expect } from 'playwright-multiauth';
test('page member on the promise', async ({ signInAs }) => {
  const dave = await signInAs('dave');
  await dave.page.goto('/whoami');
});
test('context member on the promise', async ({ signInAs }) => {
  const dave = await signInAs('dave');
  await dave.context.cookies();
});
test('page property on the promise', async ({ signInAs }) => {
  const dave = await signInAs('dave');
  await dave.page.keyboard.press('Enter');
});
test('still promises', async ({ signInAs }) => {
  const dave = await signInAs('dave');
  expect(dave.page).toBeInstanceOf(Promise);
  const page = await dave.page;
  expect(await dave.page.then((p) => p === page)).toBe(true);
  expect(await dave.context.finally(() => undefined)).toBe(page.context());
  expect(await dave.page.catch(() => undefined)).toBe(page);
  const [again] = await Promise.all([dave.page]);
  expect(again).toBe(page);
  await page.goto('/whoami');
  await expect(page.locator('body')).toContainText('"user":"dave"');
});
`;

test('a Page or BrowserContext member read on signInAs(...).page or .context says what changed and what to write', async ({ demoEnv }) => {
  const result = await runInlineProject({ 'multiauth.yaml': MULTI_CONFIG, 'a.spec.ts': SPEC }, { env: demoEnv, args: ['--workers=1'] });
  expect(result.passed, result.output).toBe(1);
  expect(result.failed).toBe(3);
  const errors = (title: string) =>
    result.report.suites.flatMap((s) => s.specs).filter((s) => s.title === title).flatMap((s) => s.tests).flatMap((t) => t.results).flatMap((r) => r.errors).map((e) => e.message ?? '');
  expect(errors('page member on the promise')).toEqual([
    expect.stringContaining(
      "MultiAuthError: playwright-multiauth: signInAs('dave').page is a promise of the user's page: `goto` was read on the promise\n" +
        "  signInAs opens a user's browser context and page the first time `context` or `page` is read, so both are promises; earlier versions opened them in signInAs itself, where `dave.page.goto` worked\n" +
        'Recommended fix: Await the page first: `(await dave.page).goto(...)`, or `const page = await dave.page;` once and then `page.goto(...)`.\n' +
        '[SPEC_USAGE]',
    ),
  ]);
  expect(errors('context member on the promise')).toEqual([expect.stringContaining('Recommended fix: Await the browser context first: `(await dave.context).cookies(...)`')]);
  expect(errors('page property on the promise')).toEqual([expect.stringContaining('Recommended fix: Await the page first: `(await dave.page).keyboard`,')]);
  // The report points at the spec's line, not into the package.
  expect(result.output).toMatch(/> +5 \|\s+await dave\.page\.goto\('\/whoami'\);\n\s+\|\s+\^/);
  expect(result.output).not.toContain('is not a function');
  expect(result.output).not.toMatch(/dist\/playwright\/promised-part/);
});
