import { test, expect } from '@playwright/test';
import { parse } from 'yaml';
import { ConfigInvalidError } from '../../../src/core/errors.js';
import { MASK } from '../../../src/core/redactor.js';
import { AuthConfig } from '../../../src/config/schema/index.js';
import { compile } from '../../../src/compile/index.js';
import type { PlanHttpOperation } from '../../../src/compile/plan.js';
import { compileYaml } from '../compile-helpers.js';

/**
 * compile parses every curl command once, into an http operation; a command the simulator refuses
 * is an issue at its config path, and every such command of the config is reported, not the first.
 * (Was tests/compile/curl/preflight.spec.ts, when workers parsed commands in preflight.)
 */

const BROKEN = `
presets:
  - type: curl
    extractions: []
    injections: []
    users:
      - { username: alice, curl: "curl -X POST '{{auth_url}}' -d 'u={{username}}'" }
      - { username: bob, curl: "curl https://x.test --retry 3" }
  - type: curl_sequence
    requests:
      - curl: "curl https://x.test -o out.html"
      - curl: "curl https://x.test/$(id)"
    users: [{ username: seq-a }, { username: seq-b }]
`;

function compileError(text: string, options: Parameters<typeof compile>[1] = {}): ConfigInvalidError {
  try {
    compile(AuthConfig.parse(parse(text)), options);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigInvalidError);
    return error as ConfigInvalidError;
  }
  throw new Error('compile accepted broken curl commands');
}

test('every broken curl command becomes an issue at its origin, once, even in a shared procedure', () => {
  const { issues } = compileError(BROKEN);
  expect(issues.map((i) => [i.path, i.severity])).toEqual([
    [['presets', 0, 'users', 1, 'curl'], 'error'],
    [['presets', 1, 'requests', 0, 'curl'], 'error'],
    [['presets', 1, 'requests', 1, 'curl'], 'error'],
  ]);
  expect(issues[0]?.message).toMatch(/`--retry`.*\[CURL_UNSUPPORTED_OPTION\]$/);
  expect(issues[1]?.message).toMatch(/`-o`.*\[CURL_FORBIDDEN\]$/);
  expect(issues[2]?.message).toContain('`$(...)`');
  expect(issues.every((i) => i.hint)).toBe(true);
});

test('issues are located when compile is given the file and its positions', () => {
  const error = compileError(BROKEN, { file: 'multiauth.yaml', locate: (path) => ({ file: 'multiauth.yaml', line: path.length, column: 1 }) });
  expect(error.message).toBe('multiauth.yaml: 3 errors in the config');
  expect(error.issues.map((i) => i.location)).toEqual([
    { file: 'multiauth.yaml', line: 5, column: 1 },
    { file: 'multiauth.yaml', line: 5, column: 1 },
    { file: 'multiauth.yaml', line: 5, column: 1 },
  ]);
  expect(error.render().split('\n')[0]).toMatch(/^multiauth\.yaml:5:1 {2}presets\[0\]\.users\[1\]\.curl: curl command: option `--retry`/);
});

test('a config without curl problems compiles: commands parsed into http operations, their text kept masked', () => {
  const plan = compileYaml(`
presets:
  - type: curl
    extractions: []
    injections: []
    users:
      - username: alice
        curl: >-
          curl https://x.test/login
          -u 'alice:pw-in-u-1' -H 'Cookie: sid=cookie-val-2'
          -d 'user=alice&password=pw-in-body-3'
`);
  const op = plan.procedures['preset[0]:curl:alice']!.operations[0] as PlanHttpOperation;
  expect(op.tech).toBe('http');
  expect(op.request).toMatchObject({ url: 'https://x.test/login', method: 'POST', body: 'user=alice&password=pw-in-body-3' });
  expect(op.source).toEqual({
    kind: 'curl',
    command: `curl https://x.test/login -u 'alice:${MASK}' -H 'Cookie: ${MASK}' -d 'user=alice&password=${MASK}'`,
  });
  expect(plan.secrets).toEqual(expect.arrayContaining(['pw-in-u-1', 'sid=cookie-val-2', 'pw-in-body-3']));
});
