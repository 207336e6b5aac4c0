import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MultiAuthError } from '../../src/core/errors.js';
import { SessionStore, sessionFilePath } from '../../src/sessions/index.js';
import { RUN_MEMORY_MS } from '../../src/sessions/check-mark.js';
import { decodeFailure, encodeFailure } from '../../src/sessions/failure-memory.js';
import { withoutRunnerVariables } from '../support/child-playwright.js';
import { tempDir, removeTempDirs } from '../support/temp-files.js';
import { makeSession } from './support/make-session.js';

// Issue 24, item 5: a run is a run everywhere. Run ids are unique per process tree even where pids
// repeat, and what a run remembers (a failed sign-in, a checked session) holds for an hour at most.

test.afterAll(() => removeTempDirs());

const PRINT = join(import.meta.dirname, 'support', 'print-run-id.mjs');

/** `runId` in a fresh node process, in its own PID namespace when `container`. */
function runIdOf(env: Record<string, string>, container = false): { pid: number; run: string } {
  const node = [process.execPath, PRINT];
  const [program, ...args] = (container ? ['unshare', '--pid', '--fork', '--mount-proc', ...node] : node) as [string, ...string[]];
  const clean = withoutRunnerVariables(process.env);
  delete clean.MULTIAUTH_RUN_ID;
  delete clean.MULTIAUTH_RUNNER_RUN;
  return JSON.parse(execFileSync(program, args, { env: { ...clean, ...env }, encoding: 'utf8', timeout: 60_000 })) as { pid: number; run: string };
}

test('each command is its own run, though its pid repeats in a container; MULTIAUTH_RUN_ID pins the run', () => {
  const first = runIdOf({}, true);
  const second = runIdOf({}, true);
  expect([first.pid, second.pid]).toEqual([1, 1]);
  expect(first.run).toMatch(/^[0-9a-f]{20}$/);
  expect(second.run).not.toBe(first.run);
  expect(runIdOf({ MULTIAUTH_RUN_ID: 'pipeline-42' }, true).run).toBe('pipeline-42');
});

test('a worker takes the run its runner shared; a variable shared by another runner (a nested run) is not its own', () => {
  expect(runIdOf({ TEST_WORKER_INDEX: '0', MULTIAUTH_RUNNER_RUN: `${process.pid}:shared-by-the-runner` }).run).toBe('shared-by-the-runner');
  const nested = runIdOf({ TEST_WORKER_INDEX: '0', MULTIAUTH_RUNNER_RUN: `${process.pid + 1}:an-outer-run` }).run;
  // Without a variable of its runner's: the runner's pid and start time, stable for the run.
  expect(nested).toMatch(new RegExp(`^${process.pid}@\\d+@[0-9a-f-]{36}$`));
  expect(runIdOf({ TEST_WORKER_INDEX: '1' }).run).toBe(nested);
});

/** Makes the JSON mark in `file` look `ageMs` old. */
function age(file: string, ageMs: number): void {
  const mark = JSON.parse(readFileSync(file, 'utf8')) as { at: number };
  writeFileSync(file, JSON.stringify({ ...mark, at: Date.now() - ageMs }));
}

test('a failed sign-in is remembered for an hour at most, even within its run', async () => {
  const dir = tempDir();
  let attempts = 0;
  const provider = {
    signIn: async () => {
      attempts++;
      throw new MultiAuthError('AUTH_HTTP_STATUS', 'the server answered HTTP 401', { context: { user: 'alice', status: 401 } });
    },
    refresh: async () => makeSession('alice', 'never', null),
  };
  const options = { dir, scopeKey: 'cfg', run: 'pinned' };
  /** Whether a new store of the run answers with the remembered failure (else it tried again). */
  const remembered = async () => {
    const error = (await new SessionStore(options, provider).get('alice').catch((e: unknown) => e)) as MultiAuthError;
    expect(error).toBeInstanceOf(MultiAuthError);
    return error.details.join('\n').includes('failed earlier in this run');
  };
  expect(await remembered()).toBe(false);
  const file = `${sessionFilePath(dir, 'cfg', 'alice')}.failed`;
  age(file, RUN_MEMORY_MS - 60_000);
  expect(await remembered()).toBe(true);
  expect(attempts).toBe(1);
  age(file, RUN_MEMORY_MS + 1_000);
  expect(await remembered()).toBe(false);
  expect(attempts).toBe(2);
  // A failure remembered before marks had an age holds no more.
  const { at: _at, ...ageless } = JSON.parse(readFileSync(file, 'utf8')) as { at: number };
  writeFileSync(file, JSON.stringify(ageless));
  expect(await remembered()).toBe(false);
  expect(attempts).toBe(3);
});

test('a check mark holds for an hour at most: a cached session is checked again after it', async () => {
  const dir = tempDir();
  let checks = 0;
  const provider = {
    signIn: async (user: string) => makeSession(user, 'token-1', null),
    refresh: async () => makeSession('alice', 'never', null),
    checks: () => true,
    check: async () => {
      checks++;
    },
  };
  const options = { dir, scopeKey: 'cfg', run: 'pinned' };
  expect((await new SessionStore(options, provider).get('alice')).source).toBe('fresh');
  expect((await new SessionStore(options, provider).get('alice')).source).toBe('cached');
  expect(checks).toBe(0);
  const mark = `${sessionFilePath(dir, 'cfg', 'alice')}.checked`;
  age(mark, RUN_MEMORY_MS + 1_000);
  expect((await new SessionStore(options, provider).get('alice')).source).toBe('cached');
  expect(checks).toBe(1);
  expect((await new SessionStore(options, provider).get('alice')).source).toBe('cached');
  expect(checks).toBe(1);
});

test('a failed sign-in is remembered masked string by string: a secret made of digits never breaks the record', () => {
  const error = new MultiAuthError('AUTH_HTTP_STATUS', 'refused: the code 4012 was wrong', { context: { user: 'alice', status: 401 } });
  const text = encodeFailure('run-1', error, (t) => t.replaceAll('401', '***'), 'slot');
  const back = decodeFailure(text, 'run-1', 'slot');
  expect(back?.message).toBe('refused: the code ***2 was wrong');
  expect(back?.context).toEqual({ user: 'alice', status: 401 });
});
