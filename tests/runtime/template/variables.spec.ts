import { test, expect } from '@playwright/test';
import type { PlanCredentials, PlanUser } from '../../../src/compile/plan.js';
import { initialScope } from '../../../src/runtime/template/variables.js';

function credentials(extra: Partial<PlanCredentials> = {}): PlanCredentials {
  return { headers: [], cookies: [], query: [], basic: 'none', ...extra };
}

function user(extra: Partial<PlanUser> = {}): PlanUser {
  return {
    name: 'alice',
    origin: ['users', 0],
    source: { kind: 'user' },
    credentials: credentials({ username: 'alice@x.test', password: 'pw-1' }),
    variables: { tenant: 'acme' },
    mtls: false,
    ...extra,
  };
}

test('user variables, then username and password from the credentials', () => {
  expect(initialScope(user())).toEqual({ tenant: 'acme', username: 'alice@x.test', password: 'pw-1' });
});

test('a declared variable named username or password wins over the credentials', () => {
  const scope = initialScope(user({ variables: { username: 'declared' } }));
  expect(scope.username).toBe('declared');
  expect(scope.password).toBe('pw-1');
});

test('credentials without username/password add nothing', () => {
  expect(initialScope(user({ credentials: credentials() }))).toEqual({ tenant: 'acme' });
});

test('a refresh sees the previous variables, overridden by its own variables and credentials', () => {
  const scope = initialScope({
    previous: { refresh_token: 'rt', tenant: 'old', password: 'old-pw', access_token: 'at' },
    variables: { tenant: 'refresh-tenant' },
    credentials: credentials({ username: 'r-user', password: 'r-pw' }),
  });
  expect(scope).toEqual({ refresh_token: 'rt', tenant: 'refresh-tenant', password: 'r-pw', access_token: 'at', username: 'r-user' });
});

test('inputs are not modified', () => {
  const u = user();
  const previous = { a: '1' };
  const scope = initialScope({ ...u, previous });
  scope.tenant = 'changed';
  expect(u.variables.tenant).toBe('acme');
  expect(previous).toEqual({ a: '1' });
});
