import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from '../support/demo.js';
import { writeTempConfig } from '../support/temp-files.js';
import { runCliAsync } from '../support/cli.js';
import { runMain } from '../support/cli-in-process.js';
import { ROOT } from '../support/root.js';
import { MASK } from '../../src/core/redactor.js';

// The masked output and the failing sign-in go through the real bin (what a user's terminal gets,
// the process's exit code); the other cases test what `login` decides, in process (runMain).

const PASSWORD = 'alice-password';

function config(url: string): string {
  return `
presets:
  - type: http
    request:
      url: ${url}/auth/token?ttl=600
      method: POST
      body: { username: "{{username}}", password: "{{password}}" }
    extractions:
      - { name: access_token, location: body, key: data.auth.access_token }
      - { name: expires_in, location: body, key: data.auth.expires_in }
    injections:
      - { location: header, key: Authorization, prefix: Bearer, variable: access_token }
      - { location: cookie, key: token, variable: access_token }
    users:
      - { username: alice, password: ${PASSWORD} }
      - { username: bob, password: not-bobs-password }
`;
}

test.beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'commands', 'login.cjs'))) throw new Error('dist/ is missing the login command: run `npm run build` first (npm test does)');
});

test('login prints the session with secrets masked, and never the password', async ({ demo }) => {
  const { dir, remove } = writeTempConfig(config(demo.url));
  try {
    const run = await runCliAsync(['login', 'alice'], { cwd: dir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^user: +alice$/m);
    expect(run.stdout).toMatch(/^how: +signed in by procedure "preset\[0\]:http"$/m);
    expect(run.stdout).toMatch(/^expires: +\d{4}-\d\d-\d\dT[\d:.]+Z \(in 10 min\)$/m);
    expect(run.stdout).toContain(`Authorization: Bearer ${MASK}`);
    expect(run.stdout).toContain(`token=${MASK}`);
    expect(run.stdout).not.toMatch(/eyJ[\w-]+\./);
    expect(run.stdout + run.stderr).not.toContain(PASSWORD);
  } finally {
    remove();
  }
});

test('--reveal prints the token itself', async ({ demo }) => {
  const { dir, remove } = writeTempConfig(config(demo.url));
  try {
    const run = await runMain(['login', 'alice', '--reveal'], { cwd: dir });
    expect(run.code).toBe(0);
    const token = /Authorization: Bearer (\S+)/.exec(run.stdout)?.[1] ?? '';
    expect(token).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(run.stdout).toContain(`token=${token}`);
  } finally {
    remove();
  }
});

test('--json prints {user, headers, cookies, query, body, expiresAt}, masked unless --reveal', async ({ demo }) => {
  const { dir, file, remove } = writeTempConfig(config(demo.url));
  try {
    const masked = await runMain(['login', 'alice', '--json', '-c', file], { cwd: '/' });
    expect(masked.code).toBe(0);
    const session = JSON.parse(masked.stdout) as Record<string, unknown>;
    expect(Object.keys(session)).toEqual(['user', 'headers', 'cookies', 'query', 'body', 'expiresAt']);
    expect(session).toMatchObject({
      user: 'alice',
      headers: { Authorization: [MASK] },
      cookies: [{ name: 'token', value: MASK }],
      query: {},
      body: { set: {} },
    });
    expect(session.expiresAt).toBeGreaterThan(Date.now() + 590_000);
    expect(masked.stdout).not.toContain(PASSWORD);

    const revealed = JSON.parse((await runMain(['login', 'alice', '--json', '--reveal'], { cwd: dir })).stdout) as {
      headers: Record<string, string[]>;
      cookies: Array<{ value: string }>;
    };
    expect(revealed.headers.Authorization?.[0]).toMatch(/^Bearer eyJ/);
    expect(revealed.cookies[0]?.value).toBe(revealed.headers.Authorization?.[0]?.slice('Bearer '.length));
  } finally {
    remove();
  }
});

test('exit 1 when the sign-in fails: the error is rendered, redacted, without a stack', async ({ demo }) => {
  const { dir, remove } = writeTempConfig(config(demo.url));
  try {
    const run = await runCliAsync(['login', 'bob'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('the server answered HTTP 401 (Unauthorized)');
    expect(run.stderr).toContain('while signing in user "bob"');
    expect(run.stderr).toContain(`"password":"${MASK}"`);
    expect(run.stderr).toContain('[AUTH_HTTP_STATUS]');
    expect(run.stderr).not.toContain('not-bobs-password');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  } finally {
    remove();
  }
});

test('exit 2 for an invalid config or an unknown user', async ({ demo }) => {
  const invalid = writeTempConfig(`${config(demo.url)}\n    unexpected: true\n`);
  const valid = writeTempConfig(config(demo.url));
  try {
    const broken = await runMain(['login', 'alice'], { cwd: invalid.dir });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/multiauth\.yaml:\d+:\d+/);
    expect(broken.stderr).not.toContain(PASSWORD);
    const unknown = await runMain(['login', 'alcie'], { cwd: valid.dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no user named "alcie" (did you mean "alice"?)');
  } finally {
    invalid.remove();
    valid.remove();
  }
});
