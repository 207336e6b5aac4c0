import { test, expect } from '@playwright/test';
import { ConfigInvalidError } from '../../src/core/errors.js';
import { compileYaml } from './compile-helpers.js';

const USERS = `
presets:
  - type: basic
    validation: { url: "https://x.test/preset", status: 204 }
    users: [{ username: ann, password: a }]
  - type: basic
    validation: false
    users: [{ username: ben, password: b }]
  - type: basic
    users: [{ username: cat, password: c }]
users:
  - { name: dan, credentials: { username: dan, password: d }, validation: { url: "https://x.test/own", method: HEAD, match: "(?i)ok" } }
  - { name: eve, credentials: { username: eve, password: e }, validation: true }
`;

test('validation: the nearest wins; false turns it off; true is the top level one', () => {
  const plan = compileYaml(`validation: { url: "https://x.test/me", not_match: "Sign in" }\n${USERS}`);
  const of = (name: string) => plan.users.find((u) => u.name === name)?.validation;
  expect(of('ann')).toEqual({ url: 'https://x.test/preset', method: 'GET', status: [204], origin: ['presets', 0, 'validation'] });
  expect(of('ben')).toBeUndefined();
  expect(of('cat')).toEqual({ url: 'https://x.test/me', method: 'GET', notMatch: 'Sign in', origin: ['validation'] });
  expect(of('dan')).toEqual({ url: 'https://x.test/own', method: 'HEAD', match: '(?i)ok', origin: ['users', 0, 'validation'] });
  expect(of('eve')).toEqual(of('cat'));
});

test('validation: true without a top-level check, and a regex that does not compile, are located errors', () => {
  const error = (() => {
    try {
      compileYaml(`${USERS.replace('match: "(?i)ok"', 'match: "(unclosed"')}`);
    } catch (e) {
      return e;
    }
    return undefined;
  })();
  expect(error).toBeInstanceOf(ConfigInvalidError);
  const issues = (error as ConfigInvalidError).issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  expect(issues).toEqual(expect.arrayContaining([
    'users.1.validation: `validation: true` names the top-level validation, and there is none',
    expect.stringMatching(/^users\.0\.validation\.match: not a valid regular expression/),
  ]));
});
