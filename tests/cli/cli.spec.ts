import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { main, type CliIo } from '../../src/cli/main.js';
import { runCli, STACK_FRAME } from '../support/cli.js';
import { runMain } from '../support/cli-in-process.js';
import { ROOT } from '../support/root.js';
import { removeTempDirs, writeFiles } from '../support/temp-files.js';

test.afterAll(removeTempDirs);

// The command runs in this process (runMain, in the package root as the bin's runs are): these tests
// are about what it prints and returns, and a Node child costs about 1.2 CPU-s each. The real bin
// keeps its own tests here (exit 0 of --help, exit 2 of a bare `multiauth`, --version, the terminal
// width, a closed pipe, a full disk).

const VALID = `
procedures:
  - name: login
    operations:
      - tech: http
        parameters: { url: "http://127.0.0.1:9/login", method: POST, body: { u: "{{username}}", p: "{{password}}" } }
        extractions: [{ name: token, location: body, key: token }]
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: token }]
users:
  - { name: admin, procedure: login, credentials: { username: alice, password: cli-secret-pw } }
presets:
  - type: basic
    users: [{ username: viewer, password: viewer-secret-pw }]
`;

test.describe('help and usage', () => {
  test('--help prints the commands on stdout and exits 0', () => {
    const run = runCli(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: multiauth <command> [options]');
    for (const command of ['validate [-c FILE] [--explain]', 'users [-c FILE]', 'schema']) expect(run.stdout).toContain(command);
    expect(run.stderr).toBe('');
  });

  test('--help and every command\'s --help fit 80 columns when no terminal reads them, the words all there', async () => {
    const commands = ['validate', 'login', 'check', 'matrix', 'draft', 'users', 'types', 'passkey', 'schema'];
    for (const args of [['--help'], ...commands.map((command) => [command, '--help'])]) {
      const run = await runMain(args);
      expect(run.code).toBe(0);
      const long = run.stdout.split('\n').filter((line) => line.length > 80);
      expect(long, `multiauth ${args.join(' ')}`).toEqual([]);
    }
    const help = (await runMain(['--help'])).stdout;
    // Wrapped, not cut: each command's usage and summary, its words in order.
    const words = help.replace(/\s+/g, ' ');
    expect(words).toContain('matrix [-c FILE] [--json] [--parallel N] [--browser-path P] [--update] | --from-openapi FILE [--unsafe] [--owner NAME] | --from-replay FILE [--update] send every access request as every user and compare with access.expect');
    expect(help).toMatch(/^  check \[USER\.\.\.\].*\n      sign every user in/m);
  });

  test('--help wraps at the width of the terminal it prints to', () => {
    // A real pseudo-terminal (util-linux `script`), 60 columns wide: process.stdout.columns says so.
    const run = spawnSync('script', ['-qec', `stty cols 60; ${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'bin', 'multiauth.js'))} --help`, '/dev/null'], { encoding: 'utf8', timeout: 30_000 });
    expect(run.status).toBe(0);
    const lines = run.stdout.replace(/\r/g, '').split('\n');
    expect(lines).toContain('Commands:');
    expect(lines.filter((line) => line.length > 60)).toEqual([]);
    // Wider than 60 where the text allows: the 80-column layout would have kept this line whole.
    expect(Math.max(...lines.map((line) => line.length))).toBeGreaterThan(50);
  });

  test('a command --help prints its options', async () => {
    const run = await runMain(['validate', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: multiauth validate [-c FILE] [--explain]');
    expect(run.stdout).toMatch(/-c, --config FILE\s+config file/);
  });

  test('no command, an unknown command, an unknown option or an extra argument: usage on stderr, exit 2', async () => {
    const none = runCli([]);
    expect([none.code, none.stdout]).toEqual([2, '']);
    expect(none.stderr).toContain('multiauth: no command given');
    expect(none.stderr).toContain('Usage: multiauth <command>');

    const unknown = await runMain(['valdate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "valdate" (did you mean "validate"?)');

    const option = await runMain(['validate', '--explian']);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain('unknown option "--explian" for "validate" (did you mean "--explain"?)');
    expect(option.stderr).toContain('Usage: multiauth validate');

    const extra = await runMain(['users', 'surplus']);
    expect(extra.code).toBe(2);
    expect(extra.stderr).toContain('unexpected argument "surplus"');

    for (const run of [none, unknown, option, extra]) expect(run.stderr).not.toMatch(STACK_FRAME);
  });

  test('--version prints the package version', () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(runCli(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });
});

test.describe('validate', () => {
  test('a valid config found in the working directory: summary on stdout, exit 0', async () => {
    const dir = writeFiles({ 'multiauth.yaml': VALID });
    const run = await runMain(['validate'], { cwd: dir });
    expect(run).toEqual({ code: 0, stdout: 'multiauth.yaml: 2 users, 1 procedure OK\n', stderr: '' });
  });

  test('-c FILE is read relative to the working directory', async () => {
    const dir = writeFiles({ 'conf/auth.json': JSON.stringify({ users: [{ name: 'a', credentials: { username: 'a', password: 'p' } }] }) });
    const run = await runMain(['validate', '-c', 'conf/auth.json'], { cwd: dir });
    expect(run).toEqual({ code: 0, stdout: 'conf/auth.json: 1 user, 0 procedures OK\n', stderr: '' });
  });

  test('schema errors: every issue on stderr as file:line:col, exit 2, no stack trace', async () => {
    const dir = writeFiles({
      'multiauth.yaml': 'users:\n  - name: alice\n    credentials:\n      password: 42\n  - nmae: bob\n',
    });
    const run = await runMain(['validate'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^multiauth\.yaml:4:17 {2}users\[0\]\.credentials\.password: expected string/m);
    expect(run.stderr).toMatch(/^multiauth\.yaml:5:\d+ {2}users\[1\]/m);
    expect(run.stderr).toMatch(/^multiauth\.yaml: 2 errors$/m);
    expect(run.stderr).not.toMatch(STACK_FRAME);
    expect(run.stderr).not.toContain('internal error');
  });

  test('plan errors are located: an injection of a variable nothing extracts', async () => {
    const dir = writeFiles({ 'multiauth.yaml': VALID.replace('variable: token', 'variable: tokn') });
    const run = await runMain(['validate'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'multiauth.yaml:8:18  procedures[0].injections[0]: injection reads variable "tokn", which procedure "login" never extracts',
    );
    expect(run.stderr).toContain('multiauth.yaml: 1 error');
  });

  test('warnings are printed on stderr, located, and do not fail', async () => {
    const dir = writeFiles({ 'multiauth.yaml': VALID.replace('http://127.0.0.1:9/login', 'http://127.0.0.1:9/{{tenant}}') });
    const run = await runMain(['validate'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('multiauth.yaml: 2 users, 1 procedure OK (1 warning)\n');
    expect(run.stderr).toMatch(/^multiauth\.yaml:5:\d+ {2}warning: procedures\[0\]\.operations\[0\]: \{\{tenant\}\} is never defined/m);
  });

  test('--explain prints users and procedures with secrets masked', async () => {
    const dir = writeFiles({ 'multiauth.yaml': VALID });
    const run = await runMain(['validate', '--explain'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('user "admin"  (users[0])');
    expect(run.stdout).toContain('procedure "login"  (procedures[0]), used by admin');
    expect(run.stdout).toContain('POST http://127.0.0.1:9/login');
    expect(run.stdout).toContain('password: ********');
    expect(run.stdout).not.toContain('cli-secret-pw');
    expect(run.stdout).not.toContain('viewer-secret-pw');
  });

  test('--explain masks proxy passwords, top-level and per operation', async () => {
    const config = `proxy: http://corp:cli-proxy-pw@127.0.0.1:3128\n${VALID.replace('method: POST,', 'method: POST, proxy: "http://op:cli-op-pw@127.0.0.1:3129",')}`;
    const dir = writeFiles({ 'multiauth.yaml': config });
    const run = await runMain(['validate', '--explain'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('proxy of every sign-in request: http://corp:********@127.0.0.1:3128');
    expect(run.stdout).toContain('proxy http://op:********@127.0.0.1:3129');
    expect(run.stdout + run.stderr).not.toMatch(/cli-proxy-pw|cli-op-pw/);
  });

  test('a missing file, a missing default config, bad YAML and an unset ${VAR}: exit 2, no stack trace', async () => {
    const dir = writeFiles({
      'bad/multiauth.yaml': 'users: [\n',
      'env/multiauth.yaml': 'users:\n  - name: a\n    credentials: { username: a, password: "${CLI_TEST_UNSET_PW}" }\n',
      'empty/.keep': '',
    });
    const missing = await runMain(['validate', '-c', 'nope.yaml'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file');
    expect(missing.stderr).toContain('[CONFIG_NOT_FOUND]');

    const none = await runMain(['validate'], { cwd: join(dir, 'empty') });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no multiauth.yaml, multiauth.yml or multiauth.json in');
    expect(none.stderr).toContain('Recommended fix:');

    const syntax = await runMain(['validate'], { cwd: join(dir, 'bad') });
    expect(syntax.code).toBe(2);
    expect(syntax.stderr).toMatch(/^multiauth\.yaml:\d+:\d+ {2}/m);

    const env = await runMain(['validate'], { cwd: join(dir, 'env') });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('CLI_TEST_UNSET_PW');
    const set = await runMain(['validate'], { cwd: join(dir, 'env'), env: { CLI_TEST_UNSET_PW: 'set-pw' } });
    expect(set.stderr).toBe('');
    expect(set.code).toBe(0);

    for (const run of [missing, none, syntax, env]) {
      expect(run.stdout).toBe('');
      expect(run.stderr).not.toMatch(STACK_FRAME);
    }
  });
});

test('users prints one name a line, preset users first', async () => {
  const dir = writeFiles({ 'multiauth.yaml': VALID });
  expect(await runMain(['users'], { cwd: dir })).toEqual({ code: 0, stdout: 'viewer\nadmin\n', stderr: '' });
  const bad = writeFiles({ 'multiauth.yaml': 'users: [{ name: 1 }]\n' });
  const run = await runMain(['users'], { cwd: bad });
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(/^multiauth\.yaml:1:\d+ {2}users\[0\]\.name: /m);
});

test('schema prints the JSON Schema, the same as docs/schema.json', async () => {
  const run = await runMain(['schema']);
  expect(run.code).toBe(0);
  expect(run.stdout).toBe(readFileSync(join(ROOT, 'docs', 'schema.json'), 'utf8'));
});

test('a reader that stops early (multiauth schema | head) ends the command quietly; a full disk says so in a line; never a stack trace', () => {
  // The schema is far more than a pipe's buffer: the writes after `head` exits meet EPIPE.
  const run = spawnSync('bash', ['-c', `"${process.execPath}" bin/multiauth.js schema | head -c 1 >/dev/null; echo "\${PIPESTATUS[0]}"`], { cwd: ROOT, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(run.stdout).toBe('0\n');
  // Any other failure of the stream (a full disk): one line on the other stream, exit 70.
  const full = spawnSync('bash', ['-c', `"${process.execPath}" bin/multiauth.js schema > /dev/full`], { cwd: ROOT, encoding: 'utf8' });
  expect(full.stderr).toBe('multiauth: cannot write its output (ENOSPC)\n');
  expect(full.status).toBe(70);
});

test('an error that is not a MultiAuthError is reported as a bug with its stack, exit 70', async () => {
  let stderr = '';
  const io: CliIo = {
    stdout: {
      write() {
        throw new TypeError('stdout exploded');
      },
    },
    stderr: { write: (text: string) => (stderr += text) },
    env: {},
    cwd: ROOT,
  };
  expect(await main(['schema'], io)).toBe(70);
  expect(stderr).toMatch(/^internal error \(a bug in playwright-multiauth\)\nTypeError: stdout exploded\n/);
  expect(stderr).toMatch(STACK_FRAME);
});
