import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { runCliAsync, STACK_FRAME, type TimedCliRun } from '../support/cli.js';
import { removeTempDirs, writeFiles } from '../support/temp-files.js';

// Issue 23, item 12: FIFOs and devices where a config or its .env is expected are refused before
// they are opened (a FIFO blocks the reader for ever, /dev/zero never ends), with the path and a fix.
test.afterEach(() => removeTempDirs());

const CONFIG = 'users:\n  - name: alice\n    credentials: { username: alice, password: "${PW}" }\n';

function mkfifo(path: string): string {
  execFileSync('mkfifo', [path]);
  return path;
}

function expectRefused(run: TimedCliRun): void {
  expect(run.signal, 'killed: it blocked').toBeNull();
  expect(run.code, run.stderr).toBe(2);
  expect(run.stderr).not.toMatch(STACK_FRAME);
  expect(run.stderr).not.toContain('bad_alloc');
  expect(run.stderr).toContain('Recommended fix');
}

test('a FIFO given as the config (-c) is refused at once, not read', async () => {
  const dir = writeFiles({});
  const fifo = mkfifo(join(dir, 'multiauth.yaml'));
  const run = await runCliAsync(['validate', '-c', fifo], { timeoutMs: 20_000 });
  expectRefused(run);
  expect(run.stderr).toContain(`the config ${fifo} is not a regular file`);
  expect(run.stderr).toContain('[CONFIG_LIMIT]');
});

test('a FIFO as the .env beside the config is refused at once, naming it', async () => {
  const dir = writeFiles({ 'multiauth.yaml': CONFIG });
  const fifo = mkfifo(join(dir, '.env'));
  const run = await runCliAsync(['validate', '-c', join(dir, 'multiauth.yaml')], { timeoutMs: 20_000 });
  expectRefused(run);
  expect(run.stderr).toContain(`cannot read ${fifo}: it is not a regular file (a FIFO, a device or a socket)`);
  expect(run.stderr).toContain('Make the .env file beside the config a regular file');
});

test('a .env that links to /dev/zero is refused, not read until memory runs out', async () => {
  const dir = writeFiles({ 'multiauth.yaml': CONFIG });
  symlinkSync('/dev/zero', join(dir, '.env'));
  const run = await runCliAsync(['validate', '-c', join(dir, 'multiauth.yaml')], { timeoutMs: 20_000 });
  expectRefused(run);
  expect(run.stderr).toContain(`cannot read ${join(dir, '.env')}: it is not a regular file`);
});

test('a .env linked to a regular file is still read (a link the user made is followed)', async () => {
  const dir = writeFiles({ 'multiauth.yaml': CONFIG, 'real.env': 'PW=from-dotenv\n' });
  symlinkSync(join(dir, 'real.env'), join(dir, '.env'));
  const run = await runCliAsync(['validate', '-c', join(dir, 'multiauth.yaml')], { timeoutMs: 20_000 });
  expect(run.code, run.stderr).toBe(0);
});
