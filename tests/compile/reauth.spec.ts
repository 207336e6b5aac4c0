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
