import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, MULTI_CONFIG } from './support.js';
import { runInlineProject } from '../support/inline-project.js';

test.describe.configure({ timeout: 120_000 });

// Issue 16, item 3: editing one user signed everybody in again (the cache key hashed the whole
// file), and the files of old keys stayed in .auth/ forever.
const SPEC = `
import { test, expect } from 'playwright-multiauth';
for (const user of ['alice', 'bob', 'dave']) {
  test.describe(() => {
    test.use({ authUser: user });
    test(user, async ({ authedRequest }) => {
      expect((await (await authedRequest.get('/whoami')).json()).user).toBe(user);
    });
  });
}
`;

function sessionFiles(dir: string): string[] {
  return readdirSync(join(dir, '.auth')).filter((name) => /-[0-9a-f]{16}\.json$/.test(name)).sort();
}

test('editing one user signs only that user in again, and its old session file is removed', async ({ demo, demoEnv }) => {
  const first = await runInlineProject({ 'multiauth.yaml': MULTI_CONFIG, 'a.spec.ts': SPEC }, { env: demoEnv });
  expect(first.failed).toBe(0);
  expect(demo.counters.signIns).toEqual({ alice: 1, bob: 1, dave: 1 });
  const before = sessionFiles(first.dir);
  expect(before).toHaveLength(3);

  // bob gets a header: only bob's session depends on it.
  const edited = MULTI_CONFIG.replace('{ username: bob, password: bob-password }', '{ username: bob, password: bob-password, headers: { X-Team: blue } }');
  expect(edited).not.toBe(MULTI_CONFIG);
  const second = await runInlineProject({ 'multiauth.yaml': edited, 'a.spec.ts': SPEC }, { env: demoEnv, dir: first.dir });
  expect(second.failed, second.output).toBe(0);
  expect(demo.counters.signIns).toEqual({ alice: 1, bob: 2, dave: 1 });
  const annotations = JSON.stringify(second.annotations);
  expect(annotations).toContain('alice: reused from the session cache');
  expect(annotations).toContain('dave: reused from the session cache');
  expect(annotations).toContain('bob: signed in');
  const after = sessionFiles(first.dir);
  expect(after).toHaveLength(3);
  const bobBefore = before.filter((name) => name.startsWith('bob-'));
  const bobAfter = after.filter((name) => name.startsWith('bob-'));
  expect(bobAfter).toHaveLength(1);
  expect(bobAfter).not.toEqual(bobBefore);
  expect(after.filter((name) => !name.startsWith('bob-'))).toEqual(before.filter((name) => !name.startsWith('bob-')));
});
