import { test, expect } from '@playwright/test';
import { closeSync, openSync, ftruncateSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { runCliAsync, STACK_FRAME, type TimedCliRun } from '../support/cli.js';
import { removeTempDirs, tempDir, writeTempConfig } from '../support/temp-files.js';
import { startHttpServer, type RunningServer } from '../support/servers/node-http.js';
import { setPath } from '../../src/core/json-path.js';
import { parseConfig } from '../../src/config/index.js';
import { thrown } from '../support/errors.js';

// Issue 15: hostile input cannot hang, crash, pollute or leak. Each case was reproduced with the
// exact input before the fix; each ends within seconds with exit 1 or 2, a clear message, no
// stack trace, no pollution and no secret.

test.describe.configure({ timeout: 60_000 });

const SECRET = 'hostile-s3cret-pw';

let server: RunningServer;
test.beforeAll(async () => {
  server = await startHttpServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/aaa') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(`${'a'.repeat(50_000)}!`);
    if (path === '/deep') return void res.writeHead(200, { 'content-type': 'application/json' }).end(`${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`);
    if (path === '/drip') return drip(res);
    if (path === '/metadata') return void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    if (path === '/file') return void res.writeHead(302, { location: 'file:///etc/passwd' }).end();
    if (path === '/fat-header') return void res.writeHead(200, { 'x-fat': 'x'.repeat(70_000) }).end('{}');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"token":"t"}');
  });
});
test.afterAll(async () => {
  await server?.close();
  removeTempDirs();
});

/** Headers at once, then one byte every half second: only the gap between chunks is short. */
function drip(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/plain' });
  const timer = setInterval(() => {
    if (res.destroyed) clearInterval(timer);
    else res.write('x');
  }, 500);
  res.on('close', () => clearInterval(timer));
}

/** One http procedure against the test server, with `extraction` and `extra` parameters. */
function procedureConfig(path: string, extraction: string, extra = ''): string {
  return `procedures:
  - name: p
    operations:
      - tech: http
        parameters: { url: "${server.url}${path}", method: POST, body: { password: "{{password}}" }${extra} }
        extractions: [${extraction}]
users:
  - { name: alice, procedure: p, credentials: { username: alice, password: ${SECRET} } }
`;
}

async function cli(args: string[], config: string, fileName?: string): Promise<TimedCliRun> {
  const { file, remove } = writeTempConfig(config, fileName);
  try {
    return await runCliAsync([...args, '-c', file], { timeoutMs: 30_000 });
  } finally {
    remove();
  }
}

function expectClean(run: TimedCliRun, code: 1 | 2): void {
  expect(run.signal, 'killed: it did not end').toBeNull();
  expect(run.code).toBe(code);
  expect(run.stderr).not.toMatch(STACK_FRAME);
  expect(run.stderr + run.stdout).not.toContain(SECRET);
}

test('a backtracking regex against a long body ends at once: RE2 matches in linear time', async () => {
  const run = await cli(['login', 'alice'], procedureConfig('/aaa', '{ name: t, location: body, key: text, regex: "(a+)+$" }'));
  expectClean(run, 1);
  expect(run.elapsedMs).toBeLessThan(10_000);
  expect(run.stderr).toContain('[EXTRACTION_NOT_FOUND]');
});

test('a regex RE2 cannot run (look-ahead, back-reference) or a huge one is a located validate error', async () => {
  for (const [regex, said] of [['a(?=b)', 'look-around and back-references'], ['(a)\\\\1', 'look-around and back-references'], ['x'.repeat(1_000_000), 'longer than 4096 characters']] as const) {
    const run = await cli(['validate'], procedureConfig('/ok', `{ name: t, location: body, key: token, regex: "${regex}" }`));
    expectClean(run, 2);
    expect(run.stderr).toMatch(/multiauth\.yaml:6:\d+ {2}procedures\[0\]\.operations\[0\]\.extractions\[0\]\.regex: invalid regular expression/);
    expect(run.stderr).toContain(said);
    expect(run.stderr.length).toBeLessThan(5_000);
  }
});

test('a timeout bounds the whole exchange, not the gap between chunks', async () => {
  const run = await cli(['login', 'alice'], procedureConfig('/drip', '{ name: t, location: body, key: token }', ', timeout: 2'));
  expectClean(run, 1);
  expect(run.stderr).toContain('[AUTH_TIMEOUT]');
  expect(run.elapsedMs).toBeLessThan(12_000);
});

test('JSON nested 5,000 deep is searched without recursion', async () => {
  const run = await cli(['login', 'alice'], procedureConfig('/deep', '{ name: t, location: body, key: "a.a.a.b" }'));
  expectClean(run, 1);
  expect(run.stderr).toContain('[EXTRACTION_NOT_FOUND]');
});

test('redirects to link-local addresses and to other schemes are refused', async () => {
  for (const [path, said] of [['/metadata', 'refused a redirect to a link-local address (169.254.169.254)'], ['/file', 'refused a redirect to a file: URL']] as const) {
    const run = await cli(['login', 'alice'], procedureConfig(path, '{ name: t, location: body, key: token }'));
    expectClean(run, 1);
    expect(run.stderr).toContain(said);
    expect(run.stderr).toContain('[AUTH_REDIRECT]');
  }
});

test('an oversized response header is named as such, not blamed on the URL', async () => {
  const run = await cli(['login', 'alice'], procedureConfig('/fat-header', '{ name: t, location: body, key: token }'));
  expectClean(run, 1);
  expect(run.stderr).toContain('the response headers are larger than this client accepts');
});

test('no prototype walk: a __proto__ body path, key or variable is refused; setPath writes own keys only', async () => {
  const injection = procedureConfig('/ok', '{ name: t, location: body, key: token }').replace('users:', `    injections: [{ location: body, key: "__proto__.polluted", variable: t }]\nusers:`);
  const run = await cli(['validate'], injection);
  expectClean(run, 2);
  expect(run.stderr).toContain('"__proto__" cannot be a segment of a body path');

  for (const variables of ['variables: { __proto__: x }', 'variables: [{ name: constructor, value: x }]']) {
    const text = procedureConfig('/ok', '{ name: t, location: body, key: token }').replace('credentials:', `${variables}, credentials:`);
    const error = thrown(() => parseConfig(text, 'hostile.yaml', { env: {} }));
    expect(error.render()).toMatch(/the key "__proto__" is not allowed|"constructor" cannot be the name of a variable/);
  }
  const extraction = thrown(() => parseConfig(procedureConfig('/ok', '{ name: __proto__, location: body, key: token }'), 'hostile.yaml', { env: {} }));
  expect(extraction.render()).toContain('"__proto__" cannot be the name of an extraction');

  const body: Record<string, unknown> = {};
  setPath(body, '__proto__.polluted', 'token');
  setPath(body, 'constructor.prototype.polluted', 'token');
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(JSON.parse(JSON.stringify(body))).toEqual(JSON.parse('{"__proto__":{"polluted":"token"},"constructor":{"prototype":{"polluted":"token"}}}'));
});

test('environment lookups read own properties only; an unterminated ${ is an error', () => {
  for (const name of ['constructor', 'toString', '__proto__']) {
    const error = thrown(() => parseConfig(`users:\n  - { name: a, credentials: { username: a, password: "\${${name}}" } }\n`, 'env.yaml', { env: {} }));
    expect(error.render()).toMatch(name === '__proto__' ? /__proto__/ : new RegExp(`environment variable ${name} is not set`));
  }
  const open = thrown(() => parseConfig('users:\n  - { name: a, credentials: { username: a, password: "pre-${PW" } }\n', 'env.yaml', { env: { PW: 'x' } }));
  expect(open.render()).toContain('env.yaml:2:59  users[0].credentials.password: a "${" is not closed by "}"');
});

test('amplification is bounded: aliases, many keys, many errors', async () => {
  const map = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${i}`, 'v'.repeat(40)]));
  const aliased = `x-big: &big ${JSON.stringify(map)}\nusers:\n${Array.from({ length: 999 }, (_, i) => `  - { name: u${i}, credentials: { headers: *big } }`).join('\n')}\n`;
  const aliases = await cli(['validate', '--explain'], aliased);
  expectClean(aliases, 2);
  expect(aliases.stderr).toMatch(/alias|aliases/i);
  expect(aliases.stdout.length + aliases.stderr.length).toBeLessThan(10_000);

  const users = `procedures:\n  - { name: login, operations: [{ tech: http, parameters: { url: "https://x.test", method: GET } }] }\nusers:\n${Array.from({ length: 3000 }, (_, i) => `  - { name: u${i}, procedure: logni }`).join('\n')}\n`;
  const typos = await cli(['validate'], users);
  expectClean(typos, 2);
  expect(typos.stderr).toContain('unknown procedure "logni" (did you mean "login"?)');
  expect(typos.elapsedMs).toBeLessThan(15_000);
  expect(typos.stderr.length).toBeLessThan(3_000 * 400);

  const keys = `users:\n  - name: a\n    credentials: { username: a, password: b }\n    variables: { ${Array.from({ length: 40_000 }, (_, i) => `h${i}: v`).join(', ')} }\n`;
  const many = await cli(['validate'], keys);
  expect(many.signal).toBeNull();
  expect(many.code).toBe(0);
  expect(many.elapsedMs).toBeLessThan(15_000);

  const duplicated = await cli(['validate'], `users:\n  - name: a\n    credentials: { username: a, password: b }\n    variables: { ${Array.from({ length: 40_000 }, (_, i) => `h${i % 39_999}: v`).join(', ')} }\n`);
  expectClean(duplicated, 2);
  expect(duplicated.stderr).toContain('duplicate key "h0"');
});

test('a config that is a device or is too large is refused before it is read', async () => {
  const zero = await runCliAsync(['validate', '-c', '/dev/zero'], { timeoutMs: 20_000 });
  expect(zero.signal).toBeNull();
  expect(zero.stderr).toMatch(/unknown config file type|is not a regular file/);

  const dir = tempDir();
  const big = join(dir, 'big.yaml');
  const fd = openSync(big, 'w');
  ftruncateSync(fd, 600 * 1024 * 1024);
  closeSync(fd);
  const run = await runCliAsync(['validate', '-c', big], { timeoutMs: 20_000 });
  expectClean(run, 2);
  expect(run.stderr).toContain('is 600.0 MiB, more than the 8.0 MiB a config may be');
  expect(run.stderr).toContain('[CONFIG_LIMIT]');
});

test('names the CLI prints are escaped: no raw control characters', async () => {
  const run = await cli(['users'], 'users:\n  - { name: "evil\\u001b[2J\\rname", credentials: { username: a, password: b } }\n');
  expect(run.code).toBe(0);
  expect(run.stdout).toBe('evil\\x1b[2J\\x0dname\n');
});
