import { test, expect } from '@playwright/test';
import { checkDialectResponse, describeDialectError } from '../../../../src/runtime/protocols/dialects/index.js';
import { describeGraphqlErrors } from '../../../../src/runtime/protocols/dialects/graphql.js';
import { startGraphql, type GraphqlServer } from '../../../support/servers/graphql.js';
import { plainSend } from '../../../support/servers/plain-send.js';
import { thrown } from '../../../support/errors.js';
import { recorded, where } from './support.js';

test('a 200 with an errors array fails with the server\'s messages, code and path', () => {
  const body = {
    data: { login: null },
    errors: [{ message: 'Invalid credentials', locations: [{ line: 1, column: 12 }], path: ['login'], extensions: { code: 'UNAUTHENTICATED' } }],
  };
  const error = thrown(() => checkDialectResponse('graphql', recorded(200, body), where));
  expect(error.code).toBe('AUTH_PROTOCOL');
  expect(error.message).toBe('the GraphQL server answered with errors: Invalid credentials [UNAUTHENTICATED] at login');
  expect(error.context).toEqual({ ...where, method: 'POST', url: 'https://auth.example.test/token', status: 200 });
  expect(error.hint).toContain('`variables`');
});

test('several errors: three shown, the rest counted; long messages cut', () => {
  const errors = [1, 2, 3, 4, 5].map((i) => ({ message: i === 1 ? 'x'.repeat(1000) : `error ${i}` }));
  const described = describeGraphqlErrors(JSON.stringify({ errors }));
  expect(described).toBe(`${'x'.repeat(300)}…; error 2; error 3 (and 2 more)`);
});

test('a 400 with errors (a query that does not validate) is AUTH_HTTP_STATUS with the messages', () => {
  const body = { errors: [{ message: 'Cannot query field "signin" on type "Mutation". Did you mean "login"?' }] };
  const error = thrown(() => checkDialectResponse('graphql', recorded(400, body), where));
  expect(error.code).toBe('AUTH_HTTP_STATUS');
  expect(error.message).toContain('Did you mean "login"?');
});

test('data without errors, an empty errors array, and non-JSON bodies pass', () => {
  expect(() => checkDialectResponse('graphql', recorded(200, { data: { login: { token: 't' } } }), where)).not.toThrow();
  expect(() => checkDialectResponse('graphql', recorded(200, { data: { login: { token: 't' } }, errors: [] }), where)).not.toThrow();
  expect(() => checkDialectResponse('graphql', recorded(502, '<html>Bad gateway</html>'), where)).not.toThrow();
  expect(describeDialectError('graphql', '{"errors":[{"message":"boom"}]}')).toBe('boom');
  expect(describeDialectError('graphql', '{"data":{}}')).toBeUndefined();
});

test.describe('against graphql-yoga', () => {
  let server: GraphqlServer;
  test.beforeAll(async () => {
    server = await startGraphql();
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  const login = (password: string) =>
    plainSend({
      method: 'POST',
      url: server.url,
      headers: [['Content-Type', 'application/json']],
      body: JSON.stringify({
        query: 'mutation($u: String!, $p: String!) { login(username: $u, password: $p) { token } }',
        variables: { u: 'bob', p: password },
      }),
    });

  test('a wrong password: HTTP 200 and AUTH_PROTOCOL with the server\'s message; the right one passes', async () => {
    const failed = await login('wrong');
    expect(failed.responses[0]?.status).toBe(200);
    const error = thrown(() => checkDialectResponse('graphql', failed, where));
    expect(error.code).toBe('AUTH_PROTOCOL');
    expect(error.message).toBe('the GraphQL server answered with errors: Invalid username or password [UNAUTHENTICATED] at login');
    expect(error.context).toMatchObject({ url: server.url, status: 200, method: 'POST' });
    const ok = await login(server.users.bob as string);
    expect(() => checkDialectResponse('graphql', ok, where)).not.toThrow();
  });
});
