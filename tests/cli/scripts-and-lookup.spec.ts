import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { main, type CliIo } from '../../src/cli/main.js';
import { STACK_FRAME } from '../support/cli.js';
import { ROOT } from '../support/root.js';
import { readBody, sendJson, startHttpServer, type RunningServer } from '../support/servers/node-http.js';
import { removeTempDirs, writeFiles } from '../support/temp-files.js';

// Issue 25, item 6: the CLI as a tool for scripts and people. In-process (`main` with captured
// output): each case is one command line, and the suite has no time to spare for child processes.

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(argv: string[], cwd: string, env: Record<string, string | undefined> = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) }, env, cwd };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

/** `--json` output: valid JSON, else the test fails showing what was printed. */
function json(run: Run): Record<string, unknown> {
  try {
    return JSON.parse(run.stdout) as Record<string, unknown>;
  } catch {
    throw new Error(`stdout is not JSON (exit ${run.code}):\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
}

let api: RunningServer;

test.beforeAll(async () => {
  // alice's password is right; bob's is not (401); the session check answers alice's token and Basic.
  api = await startHttpServer(async (req, res) => {
    if (req.url === '/token') {
      const body = JSON.parse(await readBody(req)) as { password?: string };
      if (body.password === 'alice-pw-5521') sendJson(res, 200, { token: 'tok-alice-90d1' });
      else sendJson(res, 401, { error: 'bad password' });
      return;
    }
    const known = req.headers.authorization === 'Bearer tok-alice-90d1' || req.headers.authorization?.startsWith('Basic ');
    sendJson(res, known ? 200 : 401, {});
  });
});

test.afterAll(async () => {
  await api.close();
  removeTempDirs();
});

function config(url: string): string {
  return `
validation: { url: "${url}/me" }
presets:
  - type: http
    request: { url: "${url}/token", method: POST, body: { username: "{{username}}", password: "{{password}}" } }
    extractions: [{ name: token, location: body, key: token }]
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: token }]
    users:
      - { username: alice, password: alice-pw-5521 }
      - { username: bob, password: bob-wrong-pw-3310 }
      - { username: carol, password: "\${CAROL_PASSWORD}" }
  - type: basic
    users: [{ username: viewer, password: viewer-pw-7714 }]
`;
}

test('check runs every user it can: an unset variable fails only its user; a failed sign-in is never "signed in by" nor checked', async () => {
  const dir = writeFiles({ 'multiauth.yaml': config(api.url) });
  const run = await cli(['check', '--json'], dir);
  const out = json(run);
  expect(out.ok).toBe(false);
  const users = out.users as Array<Record<string, unknown>>;
  expect(users.map((u) => [u.user, u.ok, u.how, u.checked])).toEqual([
    ['alice', true, 'signed in by procedure "preset[0]:http"', true],
    ['bob', false, 'not signed in', false],
    ['carol', false, 'not signed in', false],
    ['viewer', true, 'static credentials (no sign-in request)', true],
  ]);
  const [bob, carol] = [users[1]?.error, users[2]?.error] as Array<Record<string, unknown>>;
  expect(bob).toMatchObject({ code: 'AUTH_HTTP_STATUS', context: { user: 'bob', status: 401 } });
  expect(carol).toMatchObject({ code: 'CONFIG_ENV_MISSING', issues: [{ message: 'environment variable CAROL_PASSWORD is not set' }] });
  // The unset variable is the config's fault, as `validate` says: exit 2.
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('warning: presets[0].users[2].password: environment variable CAROL_PASSWORD is not set: user carol cannot sign in');
  for (const secret of ['alice-pw-5521', 'bob-wrong-pw-3310', 'tok-alice-90d1', 'viewer-pw-7714']) expect(run.stdout + run.stderr).not.toContain(secret);

  // The text form says the same, one line a user.
  const text = await cli(['check', 'bob', 'carol'], dir);
  expect(text.code).toBe(2);
  expect(text.stdout).toMatch(/^FAIL {2}bob {4}AUTH_HTTP_STATUS: /m);
  expect(text.stdout).toMatch(/^FAIL {2}carol {2}CONFIG_ENV_MISSING: /m);
  expect(text.stdout).not.toContain('signed in by');
});

test('--json: valid JSON on stdout for every command, also for exit 2, with one error shape', async () => {
  const dir = writeFiles({
    'good/multiauth.yaml': config(api.url),
    'bad/multiauth.yaml': 'users:\n  - name: a\n    credentials: { username: a, password: 42 }\n    procedure: nowhere\n',
  });
  const good = join(dir, 'good');
  const bad = join(dir, 'bad');

  const validate = await cli(['validate', '--json'], good, { CAROL_PASSWORD: 'carol-pw' });
  expect(validate.code).toBe(0);
  expect(json(validate)).toMatchObject({ ok: true, file: join(good, 'multiauth.yaml'), users: ['alice', 'bob', 'carol', 'viewer'], warnings: [] });
  const users = await cli(['users', '--json'], good);
  expect([users.code, json(users)]).toEqual([0, { ok: true, users: ['alice', 'bob', 'carol', 'viewer'] }]);
  const schema = await cli(['schema', '--json'], good);
  expect(schema.stdout).toBe(readFileSync(join(ROOT, 'docs', 'schema.json'), 'utf8'));

  const failures: Array<[string[], string, string]> = [
    [['validate', '--json'], bad, 'CONFIG_INVALID'],
    [['users', '--json'], bad, 'CONFIG_INVALID'],
    [['check', '--json'], bad, 'CONFIG_INVALID'],
    [['login', 'a', '--json'], bad, 'CONFIG_INVALID'],
    [['validate', '--json'], good, 'CONFIG_ENV_MISSING'],
    [['check', 'alcie', '--json'], good, 'USER_UNKNOWN'],
    [['login', 'alcie', '--json'], good, 'USER_UNKNOWN'],
    [['check', '--json', '--parallel', '0'], good, 'CLI_USAGE'],
    [['check', '--json', '--bogus'], good, 'CLI_USAGE'],
    [['login', '--json'], good, 'CLI_USAGE'],
    [['users', '--json', '-c', 'nope.yaml'], good, 'CONFIG_NOT_FOUND'],
  ];
  for (const [argv, cwd, code] of failures) {
    const run = await cli(argv, cwd);
    expect(run.code, argv.join(' ')).toBe(2);
    const out = json(run);
    expect(Object.keys(out), argv.join(' ')).toEqual(['ok', 'error']);
    expect(out.ok).toBe(false);
    const error = out.error as Record<string, unknown>;
    expect(error.code, argv.join(' ')).toBe(code);
    expect(typeof error.message).toBe('string');
    expect(Array.isArray(error.details)).toBe(true);
    // People still read stderr.
    expect(run.stderr.length).toBeGreaterThan(0);
    expect(run.stderr).not.toMatch(STACK_FRAME);
  }
  const invalid = json(await cli(['validate', '--json'], bad)).error as { issues: Array<{ path: unknown[]; location: { line: number } }> };
  expect(invalid.issues.map((issue) => [issue.path, issue.location.line])).toContainEqual([['users', 0, 'credentials', 'password'], 3]);

  // A failed sign-in (exit 1) is the same shape, masked.
  const login = await cli(['login', 'bob', '--json'], good, { CAROL_PASSWORD: 'carol-pw' });
  expect(login.code).toBe(1);
  expect(json(login)).toMatchObject({ ok: false, error: { code: 'AUTH_HTTP_STATUS', context: { user: 'bob', status: 401 } } });
  expect(login.stdout).not.toContain('bob-wrong-pw-3310');
});

test('config lookup: a config in a parent folder is named; -c DIR reads the config in DIR; hints name -c only', async () => {
  const dir = writeFiles({
    'multiauth.yaml': 'presets:\n  - type: basic\n    users: [{ username: viewer, password: viewer-pw }]\n',
    'app/tests/.keep': '',
    'empty/.keep': '',
  });
  const below = await cli(['users'], join(dir, 'app', 'tests'));
  expect(below.code).toBe(2);
  expect(below.stderr).toBe(
    `no multiauth.yaml, multiauth.yml or multiauth.json in ${join(dir, 'app', 'tests')}\n` +
      `  there is one in a parent folder: ${join(dir, 'multiauth.yaml')}\n` +
      `Recommended fix: Pass it with -c ../../multiauth.yaml, or run multiauth in ${dir}.\n` +
      '[CONFIG_NOT_FOUND]\n',
  );

  const folder = await cli(['users', '-c', '..'], join(dir, 'app'));
  expect([folder.code, folder.stdout]).toEqual([0, 'viewer\n']);
  const emptyFolder = await cli(['users', '-c', 'empty'], dir);
  expect(emptyFolder.code).toBe(2);
  expect(emptyFolder.stderr).toContain(`no multiauth.yaml, multiauth.yml or multiauth.json in ${join(dir, 'empty')}\n`);
  expect(emptyFolder.stderr).not.toContain('unknown config file type');

  const missing = await cli(['validate', '-c', 'nope.yaml'], dir);
  expect(missing.code).toBe(2);
  expect(missing.stderr).toContain('Recommended fix: Check the path, or create the file (see docs/format.md); choose another file with -c FILE.');
  for (const run of [below, emptyFolder, missing]) expect(run.stderr).not.toMatch(/authConfig|MULTIAUTH_CONFIG/);
});

test('--browser-path that names no file is a usage error (exit 2) even when no user needs a browser', async () => {
  const dir = writeFiles({ 'multiauth.yaml': 'presets:\n  - type: basic\n    users: [{ username: viewer, password: viewer-pw }]\n' });
  for (const argv of [['check', '--browser-path', '/nope/chromium'], ['login', 'viewer', '--browser-path', dir]]) {
    const run = await cli(argv, dir);
    expect(run.code, argv.join(' ')).toBe(2);
    expect(run.stderr).toMatch(/^no browser at \S+\nRecommended fix: Pass the path of a Chromium executable with --browser-path/);
    expect(run.stdout).toBe('');
  }
  expect((await cli(['check'], dir)).code).toBe(0);
});

// Found on the way: the Basic header of a basic user ("user:password" in base64) printed in clear.
test('login masks the Basic header of static credentials, in text and --json', async () => {
  const dir = writeFiles({ 'multiauth.yaml': 'presets:\n  - type: basic\n    users: [{ username: viewer, password: viewer-pw-7714 }]\n' });
  const encoded = Buffer.from('viewer:viewer-pw-7714').toString('base64');
  const text = await cli(['login', 'viewer'], dir);
  expect(text.code).toBe(0);
  expect(text.stdout).toContain('Authorization: Basic ********');
  const asJson = await cli(['login', 'viewer', '--json'], dir);
  expect(json(asJson)).toMatchObject({ user: 'viewer', headers: { Authorization: [expect.stringContaining('********')] } });
  for (const run of [text, asJson]) expect(run.stdout + run.stderr).not.toContain(encoded);
  const revealed = await cli(['login', 'viewer', '--json', '--reveal'], dir);
  expect(json(revealed)).toMatchObject({ headers: { Authorization: [`Basic ${encoded}`] } });
});
