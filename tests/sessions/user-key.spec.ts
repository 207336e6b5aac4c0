import { expect, test } from '@playwright/test';
import { userCacheKey } from '../../src/sessions/index.js';
import { planFromYaml } from '../support/plan.js';

// Issue 16, item 3: a session is reused unless something *that user's* sign-in depends on changed.
const PROCEDURE = `
procedures:
  - name: login
    operations:
      - tech: http
        parameters: { url: "https://app.test/auth/token", method: POST, body: { u: "{{username}}", p: "{{password}}" } }
        extractions: [{ name: t, location: body, key: token }]
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: t }]
`;
const PRESET = (bobPassword: string) => `
presets:
  - type: basic
    users: [{ username: carol, password: c }]
  - type: http
    request: { url: "https://app.test/auth/token", method: POST, body: { u: "{{username}}", p: "{{password}}" } }
    extractions: [{ name: t, location: body, key: token }]
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: t }]
    users: [{ username: bob, password: ${bobPassword} }]
`;
const USERS = (alicePassword: string, extra = '') => `
users:
  - name: alice
    credentials: { username: alice, password: ${alicePassword} }
    procedure: login
${extra}`;

function keyOf(text: string, user: string): string {
  const plan = planFromYaml(text);
  return userCacheKey(plan, plan.users.find((u) => u.name === user)!);
}

test('editing another user, adding one or moving presets leaves a user\'s key alone', () => {
  const base = PRESET('b1') + PROCEDURE + USERS('a1');
  const alice = keyOf(base, 'alice');
  const bob = keyOf(base, 'bob');
  expect(alice).toMatch(/^[0-9a-f]{64}$/);
  expect(keyOf(PRESET('b2') + PROCEDURE + USERS('a1'), 'alice')).toBe(alice);
  expect(keyOf(base + '  - name: dave\n    credentials: { username: dave, password: d }\n    procedure: login\n', 'alice')).toBe(alice);
  // The basic preset moved after the http one: bob's preset index changes, not what he does.
  const moved = PRESET('b1').replace(/  - type: basic\n    users: \[\{ username: carol, password: c \}\]\n/, '') + '  - type: basic\n    users: [{ username: carol, password: c }]\n';
  expect(moved.indexOf('type: http')).toBeLessThan(moved.indexOf('type: basic'));
  expect(keyOf(moved + PROCEDURE + USERS('a1'), 'bob')).toBe(bob);
  // The procedure renamed: the same requests.
  expect(keyOf(PRESET('b1') + PROCEDURE.replace('name: login', 'name: sign-in') + USERS('a1').replace('procedure: login', 'procedure: sign-in'), 'alice')).toBe(alice);
});

test('a change to what the user\'s sign-in depends on gives another key', () => {
  const base = PRESET('b1') + PROCEDURE + USERS('a1');
  const alice = keyOf(base, 'alice');
  expect(keyOf(PRESET('b1') + PROCEDURE + USERS('a2'), 'alice')).not.toBe(alice);
  expect(keyOf(PRESET('b1') + PROCEDURE.replace('/auth/token', '/v2/token') + USERS('a1'), 'alice')).not.toBe(alice);
  expect(keyOf(PRESET('b1') + PROCEDURE.replace('key: token', 'key: access') + USERS('a1'), 'alice')).not.toBe(alice);
  expect(keyOf(`proxy: "http://127.0.0.1:3128"\n${base}`, 'alice')).not.toBe(alice);
  expect(keyOf(PRESET('b2') + PROCEDURE + USERS('a1'), 'bob')).not.toBe(keyOf(base, 'bob'));
});
