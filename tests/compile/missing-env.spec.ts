import { test, expect } from '@playwright/test';
import type { ConfigIssue } from '../../src/core/errors.js';
import type { ConfigPath } from '../../src/core/path.js';
import { markMissingEnv } from '../../src/compile/index.js';
import { compileYaml } from './compile-helpers.js';

const YAML = `
presets:
  - type: http
    request: { url: "https://x.test/login", method: POST, body: { u: "{{username}}", p: "{{password}}" } }
    extractions: [{ name: t, location: body, key: t }]
    injections: [{ location: header, key: Authorization, variable: t }]
    users: [{ username: ann, password: a }, { username: ben, password: b }]
procedures:
  - name: login
    operations: [{ tech: http, parameters: { url: "https://x.test/login", method: POST } }]
  - name: other
    operations: [{ tech: http, parameters: { url: "https://x.test/other", method: POST } }]
users:
  - { name: cat, procedure: login }
  - { name: dan, procedure: other, refresh: { procedure: login, keep: false } }
  - { name: eve, procedure: other }
`;

const issue = (path: ConfigPath): ConfigIssue => ({ severity: 'error', path, message: 'environment variable X is not set' });
const marked = (path: ConfigPath) => markMissingEnv(compileYaml(YAML), [issue(path)]).users.filter((u) => u.missingEnv?.length).map((u) => u.name);

test('an unset variable marks the users whose part of the config holds it', () => {
  expect(marked(['presets', 0, 'users', 1, 'password'])).toEqual(['ben']);
  expect(marked(['presets', 0, 'request', 'url'])).toEqual(['ann', 'ben']);
  expect(marked(['users', 2, 'credentials', 'password'])).toEqual(['eve']);
  // A procedure's users: those that sign in with it, and those that refresh with it.
  expect(marked(['procedures', 0, 'operations', 0, 'parameters', 'url'])).toEqual(['cat', 'dan']);
  expect(marked(['proxy'])).toEqual(['ann', 'ben', 'cat', 'dan', 'eve']);
});
