import { test, expect } from '@playwright/test';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appendReplayEntry, readReplayEntries } from '../../src/sessions/replay-rows.js';
import { removeTempDirs, tempDir } from '../support/temp-files.js';

// Issue 38: the run's replay rows, shared by the workers through the run's private folder.
test.afterAll(removeTempDirs);

test('rows written by workers are read back; lines that are not rows (hostile, cut, __proto__) are skipped', () => {
  const file = join(tempDir(), 'access-replay.jsonl');
  const row = { owner: 'alice', method: 'GET', url: 'http://a.test/api/orders/1', pattern: 'GET http://a.test/api/orders/{id}', status: 200, replays: { bob: { verdict: 'same' as const, status: 200 }, anonymous: { verdict: 'denied' as const, status: 401 } }, findings: ['bob'] };
  appendReplayEntry(file, { rows: [row], skipped: { unsafe: 1, out_of_scope: 0, assets: 2, over_limit: 0 }, out: '/out/a' });
  appendFileSync(file, [
    '{"row":{"owner":"x","method":"GET","url":"u","pattern":"p","replays":{"__proto__":{"verdict":"same"}},"findings":[]}}',
    '{"row":{"owner":"x","method":"GET","url":"u","pattern":"p","replays":{"bob":{"verdict":"pwned"}},"findings":[]}}',
    '{"skipped":{"unsafe":-1,"out_of_scope":0,"assets":0,"over_limit":0}}',
    '{"row":', 'not json', '[]', '',
  ].join('\n'));
  const read = readReplayEntries(file);
  expect(read.rows).toEqual([row]);
  expect(read.skipped).toEqual([{ unsafe: 1, out_of_scope: 0, assets: 2, over_limit: 0 }]);
  expect(read.outs).toEqual(['/out/a']);
  expect(({} as Record<string, unknown>).verdict).toBeUndefined();
  // A missing file has none; a file of garbage has none.
  expect(readReplayEntries(join(tempDir(), 'none.jsonl'))).toEqual({ rows: [], skipped: [], outs: [] });
  const garbage = join(tempDir(), 'g.jsonl');
  writeFileSync(garbage, 'x'.repeat(100_000));
  expect(readReplayEntries(garbage).rows).toEqual([]);
});
