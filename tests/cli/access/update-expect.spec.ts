import { test, expect } from '@playwright/test';
import { parse } from 'yaml';
import { updateAccessExpect, type ObservedMatrix } from '../../../src/cli/access/update-expect.js';
import { thrown } from '../../support/errors.js';

const CONFIG = `# Test users of the shop (comment before everything)
users:
  - name: admin            # the owner
    headers: { x-role: [admin] }
  - name: editor
    headers: { x-role: [editor] }
  - name: viewer
    headers: { x-role: [viewer] }

access:
  # what to try
  requests:
    - name: list users
      url: \${BASE_URL}/users
    - name: delete a comment
      method: DELETE
      unsafe: true          # runs last
      url: \${BASE_URL}/comments/1
  deny: [401, 403, 404]     # 404 hides objects
`;

const CELLS: ObservedMatrix['cells'] = {
  admin: { 'list users': { outcome: 'allow', status: 200 }, 'delete a comment': { outcome: 'allow', status: 204 } },
  editor: { 'list users': { outcome: 'allow', status: 200 }, 'delete a comment': { outcome: 'deny', status: 403 } },
  viewer: { 'list users': { outcome: 'deny', status: 403 }, 'delete a comment': { outcome: 'error', status: 500 } },
  anonymous: { 'list users': { outcome: 'deny', status: 401 }, 'delete a comment': { outcome: 'deny', status: 401 } },
};
const OBSERVED: ObservedMatrix = { users: ['admin', 'editor', 'viewer', 'anonymous'], requests: ['list users', 'delete a comment'], cells: CELLS };

test('--update creates access.expect from what it observed and keeps every comment and key of the file', () => {
  const updated = updateAccessExpect(CONFIG, OBSERVED);
  expect(updated).toBe(`${CONFIG}  expect:
    admin: allow
    editor: { list users: allow, delete a comment: deny }
    viewer: { list users: deny, delete a comment: 500 }
    anonymous: deny
`);
  // A second recording of the same observation changes nothing: the update is a fixed point.
  expect(updateAccessExpect(updated, OBSERVED)).toBe(updated);
});

test('--update rewrites an existing expect in place: comments, key order and a hand-written "*" survive where they still mean something', () => {
  const withExpect = `${CONFIG}  expect:
    # reviewed by security on 2026-10-01
    viewer: { "*": deny }   # read-only role
    admin: allow            # owners do anything
    editor:
      delete a comment: allow   # was allowed before the fix
      list users: allow
`;
  const observed: ObservedMatrix = { ...OBSERVED, cells: { ...CELLS, viewer: { 'list users': { outcome: 'deny', status: 403 }, 'delete a comment': { outcome: 'deny', status: 403 } } } };
  const updated = updateAccessExpect(withExpect, observed);
  expect(updated).toBe(`${CONFIG}  expect:
    # reviewed by security on 2026-10-01
    viewer: deny # read-only role
    admin: allow            # owners do anything
    editor:
      delete a comment: deny # was allowed before the fix
      list users: allow
    anonymous: deny
`);
});

test('--update keeps what the config expected of a cell that observed no answer at all, and a user that stops being uniform gets a map', () => {
  const withExpect = `${CONFIG}  expect:
    admin: allow  # owners
`;
  const observed: ObservedMatrix = {
    users: ['admin'],
    requests: ['list users', 'delete a comment'],
    cells: { admin: { 'list users': { outcome: 'error' }, 'delete a comment': { outcome: 'deny', status: 403 } } },
  };
  const updated = updateAccessExpect(withExpect, observed);
  expect(parse(updated).access.expect).toEqual({ admin: { 'list users': 'allow', 'delete a comment': 'deny' } });
  expect(updated).toContain('# owners');
  expect(updated.startsWith('# Test users of the shop')).toBe(true);
});

test('--update writes a JSON config back as JSON', () => {
  const json = JSON.stringify({ users: [{ name: 'admin', headers: { 'x-role': ['admin'] } }], access: { requests: [{ name: 'list users', url: 'http://x/users' }] } }, null, 2);
  const updated = updateAccessExpect(json, { users: ['admin'], requests: ['list users'], cells: { admin: { 'list users': { outcome: 'allow', status: 200 } } } });
  expect(JSON.parse(updated)).toEqual({ ...JSON.parse(json), access: { ...JSON.parse(json).access, expect: { admin: 'allow' } } });
  expect(updated.startsWith('{\n  "users"')).toBe(true);
});

test('--update refuses a config with nothing to record into, and one that does not parse, saying what to do', () => {
  const none = thrown(() => updateAccessExpect('users: []\n', OBSERVED));
  expect(none.code).toBe('CONFIG_INVALID');
  expect(none.hint).toContain('--from-openapi');
  expect(thrown(() => updateAccessExpect('access: [\n', OBSERVED)).code).toBe('CONFIG_SYNTAX');
});

test('--update turns a placeholder `expect: {}` into a block, a row per user, its comment kept', () => {
  const updated = updateAccessExpect(`${CONFIG}  expect: {}   # recorded\n`, OBSERVED);
  expect(updated.startsWith(CONFIG)).toBe(true);
  expect(updated.slice(CONFIG.length)).toMatch(/^ {2}expect:\n {4}# recorded\n {4}admin: allow\n/);
  expect(parse(updated).access.expect).toEqual({ admin: 'allow', editor: { 'list users': 'allow', 'delete a comment': 'deny' }, viewer: { 'list users': 'deny', 'delete a comment': 500 }, anonymous: 'deny' });
});
