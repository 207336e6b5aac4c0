import { test, expect, MULTI_CONFIG } from './support.js';
import { runInlineProject, inlineConfig } from '../support/inline-project.js';

test.describe.configure({ timeout: 180_000 });

test('authProjects runs the same specs as every user; viewers are refused what admins may do', async ({ demoEnv }) => {
  const result = await runInlineProject(
    {
      'playwright.config.ts': inlineConfig(`projects: (await import('playwright-multiauth')).authProjects({ name: 'api' }, { config: 'multiauth.yaml' }),`).replace(
        'export default defineConfig(',
        'export default defineConfig(',
      ),
      'multiauth.yaml': MULTI_CONFIG,
      'delete.spec.ts': `
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
    },
    { env: demoEnv },
  );
  expect(result.output).toContain('4 passed');
  expect(result.report.suites.length).toBeGreaterThan(0);
  expect(result.output).toMatch(/\[api-alice\]/);
  expect(result.output).toMatch(/\[api-dave\]/);
});

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

test('4 users on 2 workers: each user runs whole in one worker, two users at a time, and nobody is warned', async ({ demoEnv }) => {
  const result = await runInlineProject(
    {
      'playwright.config.ts': inlineConfig(`fullyParallel: true,
  projects: (await import('playwright-multiauth')).authProjects({ name: 'api' }),`),
      'multiauth.yaml': MULTI_CONFIG,
      'where.spec.ts': WHERE_SPEC.replace('authedRequest.get(', 'authedRequest.post(').replace("'/whoami')", "'/whoami', { data: {} })"),
    },
    { env: demoEnv },
  );
  expect(result.output).toContain('16 passed');
  const seen = workersByProject(result.output);
  expect([...seen.keys()].sort()).toEqual(['api-alice', 'api-bob', 'api-carol', 'api-dave']);
  // Without the share, fullyParallel spreads each project's 4 tests over both workers.
  for (const workers of seen.values()) expect(workers.size).toBe(1);
  expect(new Set([...seen.values()].flatMap((w) => [...w])).size).toBe(4);
  expect(new Set(result.output.match(/^RAN \S+ \d+ (\d+)$/gm)?.map((line) => line.split(' ')[3]))).toEqual(new Set(['0', '1']));
  expect(result.output).not.toContain('authProjects limited');
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

test('authUsers lists users synchronously for describe loops, and a chosen subset stays in order', async ({ demoEnv }) => {
  const result = await runInlineProject(
    {
      'multiauth.yaml': MULTI_CONFIG,
      'loop.spec.ts': `
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
    },
    { env: demoEnv },
  );
  expect(result.output).toContain('3 passed');
});

test('an unknown user in authUsers fails the run with a clear message, not a stack', async ({ demoEnv }) => {
  const result = await runInlineProject(
    {
      'multiauth.yaml': MULTI_CONFIG,
      'loop.spec.ts': `
import { test, authUsers } from 'playwright-multiauth';
for (const user of authUsers({ users: ['mallory'] })) test(user, () => {});
`,
    },
    { env: demoEnv },
  );
  expect(result.exitCode).not.toBe(0);
  expect(result.output).toContain('unknown user "mallory"');
  expect(result.output).toContain('Configured users: alice, bob, carol, dave.');
  expect(result.output).not.toMatch(/at .*role-matrix\.js/);
});

test('signInAs acts as a second user in the same test', async ({ demoEnv }) => {
  const result = await runInlineProject(
    {
      'multiauth.yaml': MULTI_CONFIG,
      'two.spec.ts': `
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
    },
    { env: demoEnv },
  );
  expect(result.output).toContain('1 passed');
  expect(result.annotations['bob is refused, alice may']?.map((a) => a.description)).toEqual(['bob', 'bob: signed in', 'alice', 'alice: signed in']);
});

test('run from another folder (-c sub/playwright.config.ts), authUsers and authProjects read the config beside the Playwright config, as the fixtures do', async ({ demoEnv }) => {
  const result = await runInlineProject(
    {
      // The current folder's config must not be the one read.
      'multiauth.yaml': 'users:\n  - { name: zed, credentials: { username: zed, password: zed-password } }\n',
      'sub/multiauth.yaml': MULTI_CONFIG,
      'sub/playwright.config.ts': inlineConfig(`projects: [
    ...(await import('playwright-multiauth')).authProjects({ name: 'api', testMatch: /matrix\\.spec\\.ts/ }, { users: ['bob'] }),
    { name: 'loops', testMatch: /loop\\.spec\\.ts/ },
  ],`).replace("'report.json'", "'../report.json'"),
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
    },
    { env: demoEnv, args: ['-c', 'sub/playwright.config.ts'] },
  );
  expect(result.output).toContain('3 passed');
  expect(result.exitCode).toBe(0);
  expect(Object.keys(result.annotations).sort()).toEqual(['as the project user', 'names', 'signed in by the fixtures from the same file']);
});
