import { test, expect } from '@playwright/test';
import { runDemoSuite } from '../support/demo-run.js';

interface Report {
  stats: { expected: number; unexpected: number; skipped: number };
  suites: Suite[];
}
interface Suite {
  specs: Array<{ title: string; tests: Array<{ projectName: string; annotations: Array<{ type: string; description: string }> }> }>;
  suites?: Suite[];
}

test('the demo (npm run demo) passes as every user, each signed in once per run', async () => {
  test.setTimeout(180_000);
  const { code, stdout, stderr } = await runDemoSuite({ config: 'examples/demo/playwright.config.ts', env: { DEMO_REPORTER: 'json' } });
  expect(code, stderr).toBe(0);
  const report = JSON.parse(stdout) as Report;
  expect(report.stats).toMatchObject({ unexpected: 0, skipped: 0 });
  expect(report.stats.expected).toBeGreaterThanOrEqual(11);

  const tests = (function flatten(suites: Suite[]): Suite['specs'][number]['tests'] {
    return suites.flatMap((s) => [...s.specs.flatMap((spec) => spec.tests), ...flatten(s.suites ?? [])]);
  })(report.suites);
  // authTimeline's teardown project attaches the run's sign-in timeline to the report.
  expect(new Set(tests.map((t) => t.projectName))).toEqual(new Set(['roles-alice', 'roles-bob', 'roles-carol', 'roles-dave', 'scenarios', 'multiauth timeline']));
  const notes = tests.flatMap((t) => t.annotations).filter((a) => a.type === 'multiauth').map((a) => a.description);
  // Every demo user signs in over HTTP alone: the runner signs each in ahead, once, and the workers
  // take the sessions from the cache (docs/fixtures.md, "Signed in ahead").
  expect(stderr).toContain('multiauth: 4 users signed in');
  expect(stderr).toContain(', 0 signed in again,');
  for (const user of ['alice', 'bob', 'carol', 'dave']) {
    expect(notes.filter((n) => n === `${user}: signed in`), `${user} signs in in no worker`).toHaveLength(0);
    expect(notes.filter((n) => n === `${user}: signed in ahead by the runner`).length, `${user} was signed in ahead`).toBeGreaterThanOrEqual(1);
  }
});
