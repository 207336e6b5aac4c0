import { expect, test } from '@playwright/test';
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configOwner, sessionFilePath, writeSessionFile } from '../../src/sessions/index.js';
import { removeUnreachableSessions } from '../../src/sessions/tidy-cache.js';
import type { SignInResult } from '../../src/runtime/index.js';
import { removeTempDirs, tempDir } from '../support/temp-files.js';

test.afterAll(removeTempDirs);

const SESSION: SignInResult = { user: 'alice', headers: {}, cookies: [], createdAt: 1, expiresAt: null, variables: {} } as unknown as SignInResult;
const OURS = configOwner('/repo/multiauth.yaml');
const THEIRS = configOwner('/repo/other.yaml');

function file(dir: string, key: string, user: string): string {
  return sessionFilePath(dir, key, user).slice(dir.length + 1);
}

test('removes this config\'s unreachable sessions and old formats; keeps the reachable, the other config\'s and the locked', () => {
  const dir = tempDir();
  const reachable = file(dir, 'k-alice-now', 'alice');
  const edited = file(dir, 'k-alice-before', 'alice');
  const theirs = file(dir, 'k-bob', 'bob');
  const locked = file(dir, 'k-carol-before', 'carol');
  const oldFormat = file(dir, 'k-dave', 'dave');
  writeSessionFile(join(dir, reachable), 'k-alice-now', SESSION, OURS);
  writeSessionFile(join(dir, edited), 'k-alice-before', SESSION, OURS);
  writeFileSync(join(dir, `${edited}.failed`), '{}');
  writeFileSync(join(dir, `${edited}.checked`), '{}');
  writeSessionFile(join(dir, theirs), 'k-bob', SESSION, THEIRS);
  writeSessionFile(join(dir, locked), 'k-carol-before', SESSION, OURS);
  mkdirSync(join(dir, `${locked}.lock`));
  writeFileSync(join(dir, oldFormat), JSON.stringify({ format: 2, key: 'k-dave', session: SESSION }));
  writeFileSync(join(dir, 'notes.json'), '{"format":1}');
  const { removed } = removeUnreachableSessions(dir, OURS, new Set([reachable]));
  expect(removed.sort()).toEqual([edited, `${edited}.checked`, `${edited}.failed`, oldFormat].sort());
  expect(readdirSync(dir).sort()).toEqual([reachable, theirs, locked, `${locked}.lock`, 'notes.json'].sort());
});

test('what runs leave behind goes once a day old: digests, temp files, marks of unreachable sessions', () => {
  const dir = tempDir();
  const reachable = file(dir, 'k1', 'alice');
  const gone = file(dir, 'k0', 'alice');
  const names = ['run-digest-0123', 'run-digest-4567', 'alice-0123456789abcdef.json.99.tmp', `${gone}.failed`, `${reachable}.failed`, `${reachable}.checked`];
  for (const name of names) writeFileSync(join(dir, name), '{}');
  const old = new Date(Date.now() - 25 * 60 * 60 * 1000);
  for (const name of names.filter((n) => n !== 'run-digest-4567')) utimesSync(join(dir, name), old, old);
  const { removed } = removeUnreachableSessions(dir, OURS, new Set([reachable]));
  expect(removed.sort()).toEqual(['run-digest-0123', 'alice-0123456789abcdef.json.99.tmp', `${gone}.failed`].sort());
});

test('a directory that does not exist, or a file that is no session, is left alone', () => {
  expect(removeUnreachableSessions('/nonexistent/.auth', OURS, new Set()).removed).toEqual([]);
  const dir = tempDir();
  const name = file(dir, 'k', 'eve');
  writeFileSync(join(dir, name), 'not json');
  writeFileSync(join(dir, file(dir, 'k2', 'eve')), 'null');
  expect(removeUnreachableSessions(dir, OURS, new Set()).removed).toEqual([]);
});
