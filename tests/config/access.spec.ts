import { test, expect } from '@playwright/test';
import { parseConfig } from '../../src/config/index.js';
import { compile } from '../../src/compile/compile.js';
import { brief, issuesOf, position } from './helpers.js';

// Issue 26: the access block's rules a schema cannot express, each located, with did-you-mean.
const load = (text: string) => parseConfig(text, 'multiauth.yaml', { env: {} });
const USERS = [
  'users:',
  '  - name: editor',
  '    credentials: { headers: [{ name: X-Key, values: [e] }] }',
  '  - name: bob',
  '    credentials: { headers: [{ name: X-Key, values: [b] }] }',
  '    variables: [{ name: draft_id, value: "42" }, { name: comment_id, value: "7" }]',
];

test('unknown users, request names and {{ users.x.y }}, and an unsafe method without unsafe: true, are located errors with did-you-mean', () => {
  const text = [
    ...USERS,
    'access:',
    '  requests:',
    '    - { name: list users, url: "https://a.test/api/users" }',
    '    - { name: read draft, url: "https://a.test/posts/{{ users.bob.draft_ix }}" }',
    '    - { name: by nobody, url: "https://a.test/posts/{{ users.bbo.draft_id }}" }',
    '    - { name: delete, method: DELETE, url: "https://a.test/c/{{ users.bob.comment_id }}" }',
    '    - { name: other, url: "https://a.test/{{ token }}" }',
    '  expect:',
    '    edtor: allow',
    '    bob: { list usrs: deny, "*": allow }',
    '    anonymous: deny',
  ].join('\n');
  const issues = issuesOf(() => load(text));
  expect(brief(issues)).toEqual([
    'access.requests[1].url: {{ users.bob.draft_ix }}: user "bob" declares no variable "draft_ix" (did you mean "draft_id"?)',
    'access.requests[2].url: {{ users.bbo.draft_id }}: unknown user "bbo" (did you mean "bob"?)',
    'access.requests[3].method: DELETE may change data: the matrix sends it only when the request says "unsafe: true"',
    'access.requests[4].url: {{ token }} cannot be expanded here: an access request reads only {{ users.NAME.VAR }}',
    'access.expect.edtor: unknown user "edtor" (did you mean "editor"?)',
    'access.expect.bob["list usrs"]: unknown request "list usrs" (did you mean "list users"?)',
  ]);
  expect(issues.map(position)).toEqual(['10:32', '11:31', '12:31', '13:27', '15:5', '16:12']);
  expect(issues[0]?.hint).toBe('Variables of bob: draft_id, comment_id.');
  expect(issues[4]?.hint).toBe('Declared users: editor, bob, anonymous.');
});

test('compile writes {{ users.NAME.VAR }} in, puts unsafe requests last and spells every expectation out', () => {
  const text = [
    ...USERS,
    'access:',
    '  requests:',
    '    - { name: delete, method: DELETE, unsafe: true, url: "https://a.test/c/{{ users.bob.comment_id }}" }',
    '    - { name: read draft, url: "https://a.test/posts/{{users.bob.draft_id}}", body: { id: "{{ users.bob.draft_id }}" } }',
    '    - { name: list users, url: "https://a.test/api/users" }',
    '  expect:',
    '    editor: { list users: deny, "*": allow }',
    '    bob: { read draft: 200 }',
    '    anonymous: deny',
    '  deny: [401, 403, 404]',
  ].join('\n');
  const access = compile(load(text).config).access;
  expect(access?.requests.map((r) => [r.name, r.method, r.url, r.unsafe])).toEqual([
    ['read draft', 'GET', 'https://a.test/posts/42', false],
    ['list users', 'GET', 'https://a.test/api/users', false],
    ['delete', 'DELETE', 'https://a.test/c/7', true],
  ]);
  expect(access?.requests[0]?.body).toEqual({ id: '42' });
  expect(access?.users).toEqual(['editor', 'bob', 'anonymous']);
  expect({ ...access?.expect.editor }).toEqual({ 'read draft': 'allow', 'list users': 'deny', delete: 'allow' });
  // A map without "*" expects deny of what it does not name.
  expect({ ...access?.expect.bob }).toEqual({ 'read draft': 200, 'list users': 'deny', delete: 'deny' });
  expect(access?.deny).toEqual([401, 403, 404]);
});
