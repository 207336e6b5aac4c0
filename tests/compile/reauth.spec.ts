import { test, expect } from '@playwright/test';
import { compileYaml } from './compile-helpers.js';

const USERS = `
presets:
  - type: basic
    users: [{ username: ann, password: a }, { username: ben, password: b, reauth: false }, { username: cat, password: c, reauth: true }]
users:
  - { name: dan, credentials: { username: dan, password: d } }
  - { name: eve, credentials: { username: eve, password: e }, reauth: false }
  - { name: fay, credentials: { username: fay, password: f }, reauth: true }
`;

const noReauth = (yaml: string) => compileYaml(yaml).users.filter((u) => u.reauth === false).map((u) => u.name);

test('reauth: a user says for itself; the top level says for the rest', () => {
  expect(noReauth(USERS)).toEqual(['ben', 'eve']);
  expect(noReauth(`reauth: false\n${USERS}`)).toEqual(['ann', 'ben', 'dan', 'eve']);
  expect(noReauth(`reauth: true\n${USERS}`)).toEqual(['ben', 'eve']);
});

const RULES = `
reauth: { on_status: [401, 403] }
presets:
  - type: basic
    reauth: { on_redirect: "/accounts/login/**" }
    users: [{ username: ann, password: a }, { username: ben, password: b, reauth: { on_redirect: ["/login", "https://sso.test/**"] } }, { username: cat, password: c, reauth: true }]
  - type: basic
    users: [{ username: gil, password: g }]
users:
  - { name: dan, credentials: { username: dan, password: d } }
  - { name: eve, credentials: { username: eve, password: e }, reauth: false }
`;

test('reauth rules: the nearest one wins whole (user, then preset, then top level); true and 401 alone are the default', () => {
  const users = Object.fromEntries(compileYaml(RULES).users.map((u) => [u.name, u.reauth]));
  expect(users).toEqual({
    ann: { onStatus: [401], onRedirect: ['/accounts/login/**'] },
    ben: { onStatus: [401], onRedirect: ['/login', 'https://sso.test/**'] },
    cat: undefined,
    gil: { onStatus: [401, 403], onRedirect: [] },
    dan: { onStatus: [401, 403], onRedirect: [] },
    eve: false,
  });
  expect(compileYaml(`reauth: { on_status: [401] }\nusers: [{ name: dan, credentials: { username: dan, password: d } }]`).users[0]!.reauth).toBeUndefined();
});
