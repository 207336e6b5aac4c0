import { test, expect, MULTI_CONFIG } from './support.js';
import { runInlineProject, inlineConfig, projectResults, type InlineResult, type ProjectResult } from '../support/inline-project.js';

test.describe.configure({ timeout: 180_000 });

/** The spec of the worker-share runs: each test says which project ran it in which worker. */
const WHERE_SPEC = `
import { test } from 'playwright-multiauth';
for (let i = 0; i < 4; i++) {
  test('where ' + i, async ({ authedRequest }, testInfo) => {
    await authedRequest.get('/whoami');
    console.log('RAN ' + testInfo.project.name + ' ' + testInfo.workerIndex + ' ' + testInfo.parallelIndex);
  });
}
`;

function workersByProject(output: string): Map<string, Set<string>> {
  const seen = new Map<string, Set<string>>();
  for (const [, project, worker] of output.matchAll(/^RAN (\S+) (\d+) \d+$/gm)) {
    seen.set(project as string, (seen.get(project as string) ?? new Set()).add(worker as string));
  }
  return seen;
}

// One child run for what needs no run of its own: the role matrix's projects (authProjects), the
// describe loops (authUsers) and signInAs, each its own project, side by side, all run from another
// folder (-c sub/playwright.config.ts) with a decoy config in the current one, so that each also
// shows the config beside the Playwright config is the one read. The tests below read its results.
const SHARED_RUN_FILES = {
  // The current folder's config must not be the one read.
  'multiauth.yaml': 'users:\n  - { name: zed, credentials: { username: zed, password: zed-password } }\n',
  'sub/multiauth.yaml': MULTI_CONFIG,
  // signInAs's project runs first, so that its users sign in there rather than come from the cache
  // (no sign-in ahead by the runner: tests/playwright/sign-in-ahead.spec.ts shows that one).
  'sub/playwright.config.ts': inlineConfig(`projects: [
    { name: 'two', testMatch: /two\\.spec\\.ts/ },
    ...(await import('playwright-multiauth')).authProjects({ name: 'api', testMatch: /delete\\.spec\\.ts/, dependencies: ['two'] }, { config: 'multiauth.yaml', signInAhead: false }),
    ...(await import('playwright-multiauth')).authProjects({ name: 'matrix', testMatch: /matrix\\.spec\\.ts/, dependencies: ['two'] }, { users: ['bob'], signInAhead: false }),
    { name: 'loops', testMatch: /loop\\.spec\\.ts/, dependencies: ['two'] },
    { name: 'order', testMatch: /order\\.spec\\.ts/, dependencies: ['two'] },
    // The worker share alone in the run's last phase, as in a run of its own: the projects above
    // would otherwise take its workers between its tests.
    ...(await import('playwright-multiauth')).authProjects({ name: 'where', testMatch: /where\\.spec\\.ts/, fullyParallel: true, dependencies: ['api-alice', 'api-bob', 'api-carol', 'api-dave', 'matrix-bob', 'loops', 'order'] }, { signInAhead: false }),
  ],`).replace("'report.json'", "'../report.json'"),
  'sub/where.spec.ts': WHERE_SPEC.replace('authedRequest.get(', 'authedRequest.post(').replace("'/whoami')", "'/whoami', { data: {} })"),
  'sub/delete.spec.ts': `
import { test, expect } from 'playwright-multiauth';
test('delete an item', async ({ authedRequest, authSession }, testInfo) => {
  // carol's token rides in the body of requests that have one (her http preset injects it there).
  const me = await (await authedRequest.post('/whoami', { data: {} })).json();
  expect(testInfo.project.name).toBe('api-' + me.user);
  const res = await authedRequest.delete('/admin/items/1', { data: {} });
  expect(res.status()).toBe(me.role === 'admin' ? 200 : 403);
  expect(authSession?.user).toBe(me.user);
});
`,
  'sub/order.spec.ts': `
import { test, expect, authUsers } from 'playwright-multiauth';
test('all users', () => { expect(authUsers()).toEqual(['alice', 'bob', 'carol', 'dave']); });
for (const user of authUsers({ users: ['dave', 'alice'] })) {
  test.describe(user, () => {
    test.use({ authUser: user });
    test('whoami ' + user, async ({ authedRequest }) => {
      expect((await (await authedRequest.get('/whoami')).json()).user).toBe(user);
    });
  });
}
`,
  'sub/two.spec.ts': `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'bob' });
test('bob is refused, alice may', async ({ authedRequest, signInAs }) => {
  expect((await authedRequest.delete('/admin/items/2')).status()).toBe(403);
  const alice = await signInAs('alice');
  expect((await (await alice.request.get('/whoami')).json()).user).toBe('alice');
  expect((await alice.request.delete('/admin/items/2')).status()).toBe(200);
  const page = await alice.page;
  await page.goto('/');
  const seen = await page.evaluate(async () => (await fetch('/whoami')).json());
  expect(seen.user).toBe('alice');
});
`,
  'sub/tests/matrix.spec.ts': `
import { test, expect } from 'playwright-multiauth';
test('as the project user', async ({ authedRequest }) => {
  expect((await (await authedRequest.get('/whoami')).json()).user).toBe('bob');
});
`,
  // A spec in a folder below the Playwright config's: found by going up from the spec.
  'sub/tests/loop.spec.ts': `
import { test, expect, authUsers } from 'playwright-multiauth';
test('names', () => {
  expect(authUsers()).toEqual(['alice', 'bob', 'carol', 'dave']);
  expect(authUsers({ config: 'multiauth.yaml' })).toEqual(['alice', 'bob', 'carol', 'dave']);
});
for (const user of authUsers({ users: ['carol'] })) {
  test.describe(user, () => {
    test.use({ authUser: user });
    test('signed in by the fixtures from the same file', async ({ authedRequest }) => {
      // carol's token rides in the body (her http preset injects it there).
      expect((await (await authedRequest.post('/whoami', { data: {} })).json()).user).toBe(user);
    });
  });
}
`,
};

test.describe('one run, a project each', () => {
  // In order in one worker, so that the run is made once for them all.
  test.describe.configure({ mode: 'default' });
  let shared: InlineResult;
  let projects: Record<string, ProjectResult>;
  test.beforeAll(async ({ demo, echo }) => {
    // A hook's timeout is not the file's: the run holds what two tests' runs of their own did
    // (the worker share's was one), each with 180 s.
    test.setTimeout(360_000);
    demo.reset();
    shared = await runInlineProject(SHARED_RUN_FILES, { env: { DEMO_URL: demo.url, ECHO_URL: echo.url }, args: ['-c', 'sub/playwright.config.ts'] });
    projects = projectResults(shared);
  });

  test('authProjects runs the same specs as every user; viewers are refused what admins may do', () => {
    for (const user of ['alice', 'bob', 'carol', 'dave']) expect(projects[`api-${user}`], shared.output).toMatchObject({ passed: 1, failed: 0 });
    expect(Object.keys(projects).filter((name) => name.startsWith('api-')).sort()).toEqual(['api-alice', 'api-bob', 'api-carol', 'api-dave']);
    expect(shared.report.suites.length).toBeGreaterThan(0);
    expect(shared.output).toMatch(/\[api-alice\]/);
    expect(shared.output).toMatch(/\[api-dave\]/);
  });

  test('authUsers lists users synchronously for describe loops, and a chosen subset stays in order', () => {
    expect(projects.order, shared.output).toMatchObject({ passed: 3, failed: 0 });
    expect(Object.keys(projects.order?.annotations ?? {})).toEqual(['all users', 'whoami dave', 'whoami alice']);
  });

  test('signInAs acts as a second user in the same test', () => {
    expect(projects.two, shared.output).toMatchObject({ passed: 1, failed: 0 });
    expect(projects.two?.annotations['bob is refused, alice may']?.map((a) => a.description)).toEqual(['bob', 'bob: signed in', 'alice', 'alice: signed in']);
  });

  test('run from another folder (-c sub/playwright.config.ts), authUsers and authProjects read the config beside the Playwright config, as the fixtures do', () => {
    expect(shared.exitCode, shared.output).toBe(0);
    expect(shared.failed).toBe(0);
    expect(projects['matrix-bob'], shared.output).toMatchObject({ passed: 1, failed: 0 });
    expect(projects.loops, shared.output).toMatchObject({ passed: 2, failed: 0 });
    expect([...Object.keys(projects['matrix-bob']?.annotations ?? {}), ...Object.keys(projects.loops?.annotations ?? {})].sort()).toEqual(['as the project user', 'names', 'signed in by the fixtures from the same file']);
    // Nothing ran as the current folder's user.
    expect(Object.keys(projects).sort()).toEqual(['api-alice', 'api-bob', 'api-carol', 'api-dave', 'loops', 'matrix-bob', 'order', 'two', 'where-alice', 'where-bob', 'where-carol', 'where-dave']);
  });

  test('4 users on 2 workers: each user runs whole in one worker, two users at a time, and nobody is warned', () => {
    for (const user of ['alice', 'bob', 'carol', 'dave']) expect(projects[`where-${user}`], shared.output).toMatchObject({ passed: 4, failed: 0 });
    const seen = workersByProject(shared.output);
    expect([...seen.keys()].sort()).toEqual(['where-alice', 'where-bob', 'where-carol', 'where-dave']);
    // Without the share, fullyParallel spreads each project's 4 tests over both workers.
    for (const workers of seen.values()) expect(workers.size).toBe(1);
    expect(new Set([...seen.values()].flatMap((w) => [...w])).size).toBe(4);
    expect(new Set(shared.output.match(/^RAN \S+ \d+ (\d+)$/gm)?.map((line) => line.split(' ')[3]))).toEqual(new Set(['0', '1']));
    expect(shared.output).not.toContain('authProjects limited');
  });
});

test('a config that sets more workers than authProjects was told is warned once, with the value to pass', async ({ demoEnv }) => {
  const result = await runInlineProject(
    {
      'playwright.config.ts': inlineConfig(`fullyParallel: true,
  workers: 4,
  projects: (await import('playwright-multiauth')).authProjects({ name: 'api' }, { users: ['alice', 'bob'], workers: 2 }),`),
      'multiauth.yaml': MULTI_CONFIG,
      'where.spec.ts': WHERE_SPEC,
    },
    { env: demoEnv, workersFromConfig: true },
  );
  expect(result.output).toContain('8 passed');
  const warnings = result.output.match(/playwright-multiauth: warning: authProjects limited .*/g) ?? [];
  expect(warnings).toEqual([
    "playwright-multiauth: warning: authProjects limited each of the 2 users' projects to 1 worker, assuming 2 workers (option), but this run has 4: at most 2 run at once. Tell authProjects the config's workers: authProjects(project, { workers: 4 }).",
  ]);
});

// An unknown user in authUsers fails its run as the file loads, which stops every other file of
// the run: that case shares tests/playwright/open-config.spec.ts's run of specs that fail loading.
