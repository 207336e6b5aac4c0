import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { OVER_BUDGET_FOR_NOW, QUICK_LANE, QUICK_LANE_FORBIDDEN, QUICK_LANE_LEAVES_OUT, REAL_APPS_LANE } from '../support/lanes.js';
import { ROOT } from '../support/root.js';

// Issue 36: `npm run test:quick` runs no child Playwright run, no browser and no Debian server, so
// a file that starts one must be left out of the lane (tests/support/lanes.ts) or it stops being quick.

const TESTS = join(ROOT, 'tests');

/** The lane's globs (`dir/**\/*.spec.ts` or a file) as expressions over paths relative to tests/. */
function matcher(globs: string[]): (path: string) => boolean {
  const expressions = globs.map((glob) => new RegExp(`^${glob.split('**/').map((part) => part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')).join('(?:.*/)?')}$`));
  return (path) => expressions.some((e) => e.test(path));
}

function specFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return specFiles(path);
    return entry.name.endsWith('.spec.ts') ? [relative(TESTS, path)] : [];
  });
}

/** The file and the test helpers it imports, transitively (the package's own src/ aside). */
function withHelpers(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file) || seen.size > 500) return seen;
  seen.add(file);
  for (const [, spec] of readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)) {
    const target = resolve(dirname(file), `${spec}.ts`);
    if (target.startsWith(TESTS) && existsSync(target)) withHelpers(target, seen);
  }
  return seen;
}

test('the quick lane holds the unit tests of core, config, compile and runtime, and none of its files starts a browser, a child run or a Debian server', () => {
  const inLane = matcher(QUICK_LANE);
  const leftOut = matcher(Object.keys(QUICK_LANE_LEAVES_OUT));
  const lane = specFiles(TESTS).filter((f) => inLane(f) && !leftOut(f));
  for (const folder of ['core/', 'config/', 'compile/', 'runtime/']) expect(lane.some((f) => f.startsWith(folder)), folder).toBe(true);
  const offending = lane.flatMap((file) =>
    [...withHelpers(join(TESTS, file))].flatMap((source) => {
      const text = readFileSync(source, 'utf8');
      return QUICK_LANE_FORBIDDEN.filter((pattern) => pattern.test(text)).map((pattern) => `${file} (through ${relative(TESTS, source)}): ${pattern}`);
    }),
  );
  expect(offending).toEqual([]);
  // Every file left out is still a file (a rename would otherwise put it back in quietly).
  for (const glob of Object.keys(QUICK_LANE_LEAVES_OUT)) expect(specFiles(TESTS).some(matcher([glob])), glob).toBe(true);
});

test('every file allowed over the time budget for now is a spec file, named as the end of a run names it', () => {
  const files = new Set(specFiles(TESTS));
  expect(Object.keys(OVER_BUDGET_FOR_NOW).filter((file) => !files.has(file))).toEqual([]);
});

test('the applications that take minutes to install are reached only from the real-application lane, which npm test leaves out', () => {
  const inLane = matcher(REAL_APPS_LANE);
  const lane = specFiles(TESTS).filter(inLane);
  expect(lane.length).toBeGreaterThan(0);
  // A file of `npm test` that starts Ghost would install it (minutes) inside the ten-minute suite.
  const outside = specFiles(TESTS)
    .filter((file) => !inLane(file))
    .filter((file) => [...withHelpers(join(TESTS, file))].some((source) => source.endsWith(join('support', 'servers', 'ghost.ts'))));
  expect(outside).toEqual([]);
  for (const file of lane) expect([...withHelpers(join(TESTS, file))].some((source) => source.endsWith(join('support', 'servers', 'ghost.ts'))), file).toBe(true);
});
