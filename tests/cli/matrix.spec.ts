import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STACK_FRAME } from '../support/cli.js';
import { runMain } from '../support/cli-in-process.js';
import { ROOT } from '../support/root.js';
import { writeTempConfig } from '../support/temp-files.js';
import { test, expect } from '../support/demo.js';

// Issue 26: `multiauth matrix` runs examples/access-matrix against the demo server, green; the
// demo's deliberately broken rule (GET /api/users/export forgets its admin check) is an unexpected allow.
const EXAMPLE = join(ROOT, 'examples', 'access-matrix', 'multiauth.yaml');
const PASSWORDS = ['alice-password', 'erin-password', 'bob-password'];

/** The example with one more request: the route that forgets its role check. */
function brokenConfig(): string {
  return readFileSync(EXAMPLE, 'utf8')
    .replace('    - name: delete a comment', '    - name: export users\n      url: ${DEMO_URL}/api/users/export\n    - name: delete a comment')
    .replace('erin: { list users: deny, "*": allow }', 'erin: { list users: deny, export users: deny, "*": allow }');
}

test('the example: every cell as expected, each user signed in once, exit 0; --json gives the observed matrix without secrets', async ({ demo }) => {
  demo.clear();
  const run = await runMain(['matrix', '-c', EXAMPLE, '--json'], { env: { DEMO_URL: demo.url } });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const observed = JSON.parse(run.stdout) as { ok: boolean; users: string[]; requests: string[]; cells: Record<string, Record<string, unknown>>; problems: string[] };
  expect(observed.ok).toBe(true);
  expect(observed.users).toEqual(['alice', 'erin', 'bob', 'anonymous']);
  expect(observed.requests).toEqual(['list users', 'read a published post', "read bob's draft", 'delete a comment']);
  expect(observed.cells.erin).toEqual({
    'list users': { outcome: 'deny', status: 403, expected: 'deny', unexpected: false },
    'read a published post': { outcome: 'allow', status: 200, expected: 'allow', unexpected: false },
    "read bob's draft": { outcome: 'allow', status: 200, expected: 'allow', unexpected: false },
    'delete a comment': { outcome: 'allow', status: 204, expected: 'allow', unexpected: false },
  });
  expect(observed.cells.anonymous?.['delete a comment']).toEqual({ outcome: 'deny', status: 401, expected: 'deny', unexpected: false });
  expect(observed.problems).toEqual([]);
  // One sign-in per user; a 401 or 403 of the matrix signed nobody in again.
  expect(demo.counters.signIns).toEqual({ alice: 1, erin: 1, bob: 1 });
  // The unsafe request ran: the editor and the admin deleted the comment, the viewer could not.
  expect(demo.state.comments).toEqual(['2', '3']);
  for (const secret of PASSWORDS) expect(run.stdout).not.toContain(secret);
});

test('the broken rule is an unexpected allow: marked in the table, one sentence per cell, exit 1', async ({ demo }) => {
  demo.clear();
  const { file, remove } = writeTempConfig(brokenConfig());
  try {
    const run = await runMain(['matrix', '-c', file, '--parallel', '3'], { env: { DEMO_URL: demo.url } });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe([
      'request                alice      erin                  bob                   anonymous',
      'list users             allow 200  deny 403              deny 403              deny 401',
      'read a published post  allow 200  allow 200             allow 200             deny 401',
      "read bob's draft       allow 200  allow 200             allow 200             deny 401",
      'export users           allow 200  unexpected allow 200  unexpected allow 200  deny 401',
      'delete a comment       allow 204  allow 204             deny 403              deny 401',
      '20 cells: 18 as expected, 2 unexpected (2 unexpected allows)',
      '',
      `export users: erin was allowed to GET ${demo.url}/api/users/export: expected deny — possible broken access control (HTTP 200)`,
      `export users: bob was allowed to GET ${demo.url}/api/users/export: expected deny — possible broken access control (HTTP 200)`,
      '',
    ].join('\n'));
  } finally {
    remove();
  }
});

test('an invalid access block exits 2 with located errors before anything is sent', async ({ demo }) => {
  demo.clear();
  const { dir, remove } = writeTempConfig(brokenConfig().replace('    bob: {', '    bbo: {'));
  try {
    const run = await runMain(['matrix', '-c', 'multiauth.yaml'], { cwd: dir, env: { DEMO_URL: demo.url } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^multiauth\.yaml:\d+:5 {2}access\.expect\.bbo: unknown user "bbo" \(did you mean "bob"\?\)$/m);
    expect(run.stderr).not.toMatch(STACK_FRAME);
    expect(run.stdout).toBe('');
    expect(demo.counters.signIns).toEqual({});
  } finally {
    remove();
  }
});
