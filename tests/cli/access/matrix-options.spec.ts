import { chmodSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { parse } from 'yaml';
import { main, type CliIo } from '../../../src/cli/main.js';
import { STACK_FRAME } from '../../support/cli.js';
import { startHttpServer, type RunningServer } from '../../support/servers/node-http.js';
import { removeTempDirs, tempDir } from '../../support/temp-files.js';

// `multiauth matrix --update` and `--from-openapi` through the command line, in-process (the pure
// parts are tested beside their modules): options, exit codes, the file written.

const PETSTORE = join(import.meta.dirname, 'fixtures', 'petstore-openapi.yaml');
const ADMIN_KEY = 'ak-admin-secret-77c1';

let server: RunningServer;
test.beforeAll(async () => {
  // Admins may list users; anyone with a key may read; no key: 401.
  server = await startHttpServer((req, res) => {
    const key = req.headers['x-api-key'];
    if (!key) return void res.writeHead(401).end();
    if (req.url === '/users' && key !== ADMIN_KEY) return void res.writeHead(403).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
test.afterAll(async () => {
  await server.close();
  removeTempDirs();
});

async function cli(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = { stdout: '', stderr: '' };
  const io: CliIo = { stdout: { write: (text: string) => (out.stdout += text) }, stderr: { write: (text: string) => (out.stderr += text) }, env: {}, cwd };
  const code = await main(args, io);
  return { code, ...out };
}

function config(): string {
  return `# two API keys
presets:
  - type: headers
    users:
      - { username: admin, headers: { X-Api-Key: ${ADMIN_KEY} } }   # the owner
      - { username: reader, headers: { X-Api-Key: ak-reader-3e2d } }
access:
  requests:
    - { name: list users, url: "${server.url}/users" }
    - { name: read a post, url: "${server.url}/posts/1" }
  expect:
    admin: allow   # reviewed
`;
}

test('matrix --update runs every user and anonymous, writes access.expect into the file with its mode kept, and prints no secret', async () => {
  const dir = tempDir();
  const file = join(dir, 'multiauth.yaml');
  writeFileSync(file, config());
  chmodSync(file, 0o640);
  const run = await cli(['matrix', '--update'], dir);
  expect(run.stderr).toContain('recorded the observed matrix into access.expect');
  expect(run.code).toBe(0);
  const written = readFileSync(file, 'utf8');
  expect(parse(written).access.expect).toEqual({ admin: 'allow', reader: { 'list users': 'deny', 'read a post': 'allow' }, anonymous: 'deny' });
  expect(written).toContain('    admin: allow   # reviewed\n    reader: { list users: deny, read a post: allow }\n    anonymous: deny\n');
  expect(written.startsWith(config().slice(0, config().indexOf('  expect:')))).toBe(true);
  expect(statSync(file).mode & 0o777).toBe(0o640);
  expect(run.stdout + run.stderr).not.toContain(ADMIN_KEY);
  // What it recorded is what the matrix then expects: a plain run passes.
  expect((await cli(['matrix'], dir)).code).toBe(0);
});

test('matrix --update refuses a config that is a symbolic link before it runs anything', async () => {
  const dir = tempDir();
  // An unreachable server: had the matrix run, its cells would be errors, and slow to come.
  writeFileSync(join(dir, 'real.yaml'), config().replaceAll(server.url, 'http://127.0.0.1:9'));
  symlinkSync(join(dir, 'real.yaml'), join(dir, 'multiauth.yaml'));
  const run = await cli(['matrix', '--update'], dir);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('is a symbolic link: --update does not write through links');
  expect(run.stderr).toContain('[CLI_USAGE]');
  expect(run.stdout).toBe('');
  expect(readFileSync(join(dir, 'real.yaml'), 'utf8')).toBe(config().replaceAll(server.url, 'http://127.0.0.1:9'));
});

test('matrix --from-openapi prints the draft without reading a config; --owner names the placeholders\' user', async () => {
  const dir = tempDir();
  const run = await cli(['matrix', '--from-openapi', PETSTORE, '--owner', 'alice'], dir);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const requests = parse(run.stdout).access.requests as Array<{ name: string; url: string }>;
  expect(requests.find((r) => r.name === 'getUserByName')?.url).toBe('${BASE_URL}/api/v3/user/{{ users.alice.username }}');
});

test('matrix: draft options without --from-openapi, --from-openapi with --update, and a Swagger 2 file are refused with exit 2, no stack', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'swagger.yaml'), 'swagger: "2.0"\ninfo: { title: old, version: "1" }\npaths: {}\n');
  const stray = await cli(['matrix', '--unsafe'], dir);
  expect([stray.code, stray.stderr]).toEqual([2, expect.stringContaining('--unsafe shapes what --from-openapi drafts')]);
  const both = await cli(['matrix', '--from-openapi', 'swagger.yaml', '--update'], dir);
  expect([both.code, both.stderr]).toEqual([2, expect.stringContaining('cannot be combined with --update')]);
  const swagger = await cli(['matrix', '--from-openapi', 'swagger.yaml'], dir);
  expect(swagger.code).toBe(2);
  expect(swagger.stderr).toContain('not an OpenAPI 3 document (Swagger 2.0)');
  expect(swagger.stderr).toContain('[OPENAPI_INVALID]');
  for (const run of [stray, both, swagger]) expect(run.stderr).not.toMatch(STACK_FRAME);
});
