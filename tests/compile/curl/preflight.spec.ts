import { test, expect } from '@playwright/test';
import type { Plan, PlanOperation } from '../../../src/compile/plan.js';
import { curlIssues } from '../../../src/compile/curl/index.js';

function curlOp(origin: Array<string | number>, command: string): PlanOperation {
  return { tech: 'curl', origin, command, extractions: [] };
}

function planOf(...procedures: Array<{ name: string; operations: PlanOperation[] }>): Plan {
  return {
    users: [],
    procedures: Object.fromEntries(procedures.map((p) => [p.name, { ...p, origin: ['presets', 0], injections: [] }])),
    scope: [],
    mtls: [],
  };
}

test('every broken curl command becomes an issue at its origin, once', () => {
  const shared = curlOp(['presets', 1, 'requests', 0], 'curl https://x.test -o out.html');
  const plan = planOf(
    { name: 'alice', operations: [curlOp(['presets', 0, 'users', 0, 'curl'], "curl -X POST '{{auth_url}}' -d 'u={{username}}'")] },
    { name: 'bob', operations: [curlOp(['presets', 0, 'users', 1, 'curl'], 'curl https://x.test --retry 3')] },
    { name: 'seq-a', operations: [shared, curlOp(['presets', 1, 'requests', 1], 'curl https://x.test/$(id)')] },
    { name: 'seq-b', operations: [shared, { tech: 'http', origin: ['procedures', 0, 'operations', 0], extractions: [],
      request: { url: 'https://x.test', method: 'GET', headers: [], cookies: [], query: [] } }] },
  );
  const issues = curlIssues(plan);
  expect(issues.map((i) => [i.path, i.severity])).toEqual([
    [['presets', 0, 'users', 1, 'curl'], 'error'],
    [['presets', 1, 'requests', 0], 'error'],
    [['presets', 1, 'requests', 1], 'error'],
  ]);
  expect(issues[0]?.message).toMatch(/`--retry`.*\[CURL_UNSUPPORTED_OPTION\]$/);
  expect(issues[1]?.message).toMatch(/`-o`.*\[CURL_FORBIDDEN\]$/);
  expect(issues[2]?.message).toContain('`$(...)`');
  expect(issues.every((i) => i.hint)).toBe(true);
});

test('a plan without curl problems has no issues', () => {
  expect(curlIssues(planOf({ name: 'a', operations: [curlOp(['x'], 'curl https://x.test')] }))).toEqual([]);
});
