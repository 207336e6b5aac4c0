import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCliAsync, STACK_FRAME } from '../support/cli.js';
import { runMain } from '../support/cli-in-process.js';
import { writeTempConfig } from '../support/temp-files.js';
import { test, expect } from '../support/demo.js';

// The first case goes through the real bin (the process's exit code and stderr); the others test
// what `check` decides, in process (runMain).

// Issue 16, item 6: `multiauth check`, the command to run first against a new environment: every
// user signed in once, a few at a time, one line each in the config's order, non-zero on failure.
function config(url: string, bobPassword = 'bob-password'): string {
  return `
validation: { url: "${url}/whoami" }
presets:
  - type: http
    request: { url: "${url}/rec/auth/token", method: POST, body: { username: "{{username}}", password: "{{password}}" } }
    extractions: [{ name: token, location: body, key: data.auth.access_token }]
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: token }]
    users:
      - { username: alice, password: alice-password }
      - { username: bob, password: "${bobPassword}" }
      - { username: carol, password: carol-password }
  - type: headers
    users:
      - { username: robot, headers: { X-Api-Key: robot-key-8c1f } }
`;
}

test('every user signs in once; one line per user in order; a failure exits 1 with its error on stderr, masked', async ({ demo }) => {
  demo.clear();
  const { file, remove } = writeTempConfig(config(demo.url, 'bob-wrong-pw-7731'));
  try {
    const run = await runCliAsync(['check', '-c', file, '--parallel', '2']);
    expect(run.code).toBe(1);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatch(/^ok {4}alice {2}signed in by procedure "preset\[0\]:http", checked {2}\d+\.\d\d s {2}expires \d{4}-\d\d-\d\dT.*\(in 60 min\)$/);
    expect(lines[1]).toMatch(/^FAIL {2}bob {4}AUTH_HTTP_STATUS: the server answered HTTP 401 \(Unauthorized\) {2}\(\d+\.\d\d s\)$/);
    expect(lines[2]).toMatch(/^ok {4}carol {2}signed in by procedure "preset\[0\]:http", checked /);
    // A user without a sign-in is checked too: the demo does not know robot's key.
    expect(lines[3]).toMatch(/^FAIL {2}robot {2}AUTH_VALIDATION: the session check failed: HTTP 401, expected a 2xx status {2}\(\d+\.\d\d s\)$/);
    expect(lines[4]).toBe('4 users: 2 signed in, 2 failed');
    // The totals a Playwright run ends with (docs/fixtures.md), for the same sign-ins.
    expect(lines[5]).toMatch(/^multiauth: 2 users signed in \(\d+\.\d\d s\), 0 from the cache, 0 refreshed, 0 signed in again, 0 denials kept, 2 failed$/);
    expect(run.stderr).toContain('bob:\nthe server answered HTTP 401 (Unauthorized)\n  while signing in user "bob"');
    expect(run.stderr).not.toContain('bob-wrong-pw-7731');
    expect(run.stderr + run.stdout).not.toContain('robot-key-8c1f');
    expect(run.stderr).not.toMatch(STACK_FRAME);
    // Each user's sign-in was tried once, the failing one too.
    expect(demo.seen.filter((r) => r.path === '/auth/token')).toHaveLength(3);
  } finally {
    remove();
  }
});

test('--json for scripts, for the users named; exit 0 when all signed in', async ({ demo }) => {
  demo.clear();
  const { file, remove } = writeTempConfig(config(demo.url));
  try {
    const run = await runMain(['check', 'carol', 'alice', '-c', file, '--json']);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as { ok: boolean; users: Array<Record<string, unknown>> };
    expect(out.ok).toBe(true);
    expect(out.users.map((u) => [u.user, u.ok, u.how, u.checked])).toEqual([
      ['carol', true, 'signed in by procedure "preset[0]:http"', true],
      ['alice', true, 'signed in by procedure "preset[0]:http"', true],
    ]);
    expect(typeof out.users[0]?.ms).toBe('number');
    expect(out.users[0]?.expiresAt).toBeGreaterThan(Date.now());
    expect(demo.counters.signIns).toEqual({ alice: 1, carol: 1 });
  } finally {
    remove();
  }
});

test('an unknown user or a bad --parallel is a usage error (exit 2), and nobody signs in', async ({ demo }) => {
  demo.clear();
  const { file, remove } = writeTempConfig(config(demo.url));
  try {
    const unknown = await runMain(['check', 'alcie', '-c', file]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('did you mean "alice"?');
    const parallel = await runMain(['check', '-c', file, '--parallel', '0']);
    expect(parallel.code).toBe(2);
    expect(parallel.stderr).toContain('--parallel must be a whole number from 1 to 32, got "0"');
    expect(demo.seen).toEqual([]);
  } finally {
    remove();
  }
});

test('sign-ins run in parallel, never more at once than --parallel', async () => {
  let now = 0;
  let most = 0;
  const server = createServer((req, res) => {
    now++;
    most = Math.max(most, now);
    setTimeout(() => {
      now--;
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ token: 't' }));
    }, 150);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const users = Array.from({ length: 6 }, (_, i) => `      - { username: u${i}, password: p }`).join('\n');
  const { file, remove } = writeTempConfig(`
presets:
  - type: http
    request: { url: "http://127.0.0.1:${port}/token", method: POST, body: { username: "{{username}}" } }
    extractions: [{ name: token, location: body, key: token }]
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: token }]
    users:
${users}
`);
  try {
    const run = await runMain(['check', '-c', file, '--parallel', '2']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.split('\n').filter((line) => line.startsWith('ok ')).map((line) => line.split(/\s+/)[1])).toEqual(['u0', 'u1', 'u2', 'u3', 'u4', 'u5']);
    expect(most).toBe(2);
  } finally {
    remove();
    await new Promise((resolve) => server.close(resolve));
  }
});
