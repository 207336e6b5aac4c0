import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ROOT } from '../support/root.js';

// Installed as a link (npm link, npm i ../dir, file:, a workspace member) the package is compiled by
// Playwright as the project's own code, to CommonJS in a CommonJS project (docs/fixtures.md, "Every
// way of installing it"). Two things break it there, for every module and not only those the
// install-shape tests happen to load: `import.meta` (Node re-reads the module as an ES module,
// "exports is not defined"), and an `import()` of one of its own modules (a second, ES module copy of
// everything it reaches). The CLI (src/cli/) runs from bin/ in Node itself, never under Playwright.
const SRC = join(ROOT, 'src');

function packageModules(): { name: string; text: string }[] {
  return readdirSync(SRC, { recursive: true })
    .map(String)
    .filter((name) => name.endsWith('.ts') && !name.startsWith('cli/'))
    .map((name) => ({ name, text: readFileSync(join(SRC, name), 'utf8') }));
}

/** Code lines only: a TSDoc example may show `import.meta` or `import()` to the reader. */
function codeLines(text: string): string[] {
  return text.split('\n').filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line));
}

test('no module of the package reads import.meta', () => {
  const offenders = packageModules().filter(({ text }) => codeLines(text).some((line) => line.includes('import.meta')));
  expect(offenders.map(({ name }) => name)).toEqual([]);
});

test('the package imports its own modules lazily only through lazyModule, which requires them when compiled to CommonJS or installed', () => {
  const offenders: string[] = [];
  for (const { name, text } of packageModules()) {
    for (const line of codeLines(text)) {
      const own = line.match(/(?<!typeof )import\('(\.{1,2}\/[^']{1,200})'\)/);
      if (own && !line.includes(`lazyModule(() => import('${own[1]}'))`) && !line.includes(`requireNow(() => import('${own[1]}'))`)) offenders.push(`${name}: ${line.trim()}`);
    }
  }
  expect(offenders).toEqual([]);
});

// Resolved from the package's own folder, @playwright/test is missing (a link outside the project)
// or a second copy that Playwright refuses: only playwright-test.ts finds the running one.
test('no module of the package imports a value from @playwright/test; they take the running one from loadPlaywrightTest', () => {
  const offenders = packageModules()
    .filter(({ name }) => name !== 'playwright/playwright-test.ts')
    .filter(({ text }) => /^import (?!type )[^;]*from '@playwright\/test';/m.test(text))
    .map(({ name }) => name);
  expect(offenders).toEqual([]);
});
