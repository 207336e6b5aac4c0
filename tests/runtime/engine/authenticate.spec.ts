import { test, expect } from '@playwright/test';
import type { Plan, PlanCredentials, PlanOperation, PlanProcedure, PlanUser } from '../../../src/compile/plan.js';
import { MultiAuthError } from '../../../src/core/errors.js';
import { MASK, Redactor } from '../../../src/core/redactor.js';
import { authenticate } from '../../../src/runtime/engine/authenticate.js';
import { findPlanUser } from '../../../src/runtime/engine/find-user.js';
import { readBody, sendJson, startHttpServer, type RunningServer } from '../../support/servers/node-http.js';

let server: RunningServer;
const seen: Array<{ url: string; cookie: string | null; body: string }> = [];

test.beforeAll(async () => {
  server = await startHttpServer(async (req, res) => {
    const body = await readBody(req);
    seen.push({ url: req.url ?? '', cookie: req.headers.cookie ?? null, body });
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/start') {
      res.writeHead(200, { 'set-cookie': ['csrf=c1; Path=/', 'gone=1; Path=/'], 'x-step': 'one' });
      res.end(JSON.stringify({ nonce: 'n-123' }));
    } else if (path === '/finish') {
      res.writeHead(200, { 'set-cookie': ['gone=; Path=/; Max-Age=0', 'session=s-456; Path=/; HttpOnly'], 'content-type': 'application/json' });
      res.end(JSON.stringify({ token: 'tok-789-abcdef', echo: body }));
    } else if (path === '/graphql') {
      sendJson(res, 200, { data: null, errors: [{ message: 'Invalid password' }] });
    } else if (path === '/graphql-bad-gateway') {
      sendJson(res, 502, { message: 'upstream down' });
    } else if (path === '/teapot') {
      sendJson(res, 418, { message: `rejected ${body}`, padding: 'z'.repeat(800) });
    } else {
      sendJson(res, 200, { ok: true });
    }
  });
});
test.afterAll(async () => server.close());
test.beforeEach(() => {
  seen.length = 0;
});

const credentials: PlanCredentials = { username: 'alice', password: 'pa55-word!', headers: [], cookies: [], query: [], basic: 'none' };

function http(path: string, extractions: PlanOperation['extractions'] = [], body?: unknown): PlanOperation {
  return {
    tech: 'http',
    origin: ['procedures', 0, 'operations', 0],
    request: { url: `${server.url}${path}`, method: 'POST', headers: [], cookies: [], query: [], ...(body === undefined ? {} : { body }) },
    extractions,
  };
}

function planWith(operations: PlanOperation[], injections: PlanProcedure['injections'] = [], user: Partial<PlanUser> = {}): Plan {
  return {
    users: [
      { name: 'alice', origin: ['users', 0], source: { kind: 'user' }, credentials, variables: {}, procedure: 'flow', mtls: false, ...user },
      { name: 'static', origin: ['users', 1], source: { kind: 'user' }, credentials: { ...credentials, basic: 'requests' }, variables: {}, mtls: false },
    ],
    procedures: { flow: { name: 'flow', origin: ['procedures', 0], operations, injections } },
    scope: [],
    mtls: [],
  };
}

const ex = (name: string, location: 'header' | 'cookie' | 'body' | 'query', key: string) => ({ name, location, key, origin: [] });

test('operations share one cookie jar; each extracts from its own exchange into the next one\'s scope', async () => {
  const plan = planWith(
    [
      http('/start', [ex('nonce', 'body', 'nonce'), ex('step', 'header', 'x-step')]),
      http('/finish', [ex('token', 'body', 'token'), ex('session', 'cookie', 'session')], { nonce: '{{nonce}}', step: '{{step}}' }),
    ],
    [{ location: 'header', key: 'Authorization', prefix: 'Bearer', origin: [] }],
  );
  const session = await authenticate(plan, 'alice', { redactor: new Redactor(), now: () => 42 });
  expect(seen.map((s) => [s.url, s.cookie, s.body])).toEqual([
    ['/start', null, ''],
    ['/finish', 'csrf=c1; gone=1', '{"nonce":"n-123","step":"one"}'],
  ]);
  // No `variable`: the first successful extraction of the procedure.
  expect(session.headers).toEqual({ Authorization: ['Bearer n-123'] });
  expect(session.cookies.map((c) => [c.name, c.value, c.httpOnly])).toEqual([
    ['csrf', 'c1', false],
    ['session', 's-456', true],
  ]);
  // What the sign-in produced only: the config's username and password are not kept (nor cached).
  expect(session.variables).toEqual({ nonce: 'n-123', step: 'one', token: 'tok-789-abcdef', session: 's-456' });
  expect(session).toMatchObject({ user: 'alice', createdAt: 42, expiresAt: null, origin: 'signed-in' });
});

test('every extracted value is registered with the redactor as it is read', async () => {
  const redactor = new Redactor();
  const plan = planWith([http('/finish', [ex('token', 'body', 'token')])], [{ location: 'cookie', key: 't', variable: 'token', origin: [] }]);
  await authenticate(plan, 'alice', { redactor });
  expect(redactor.redact('token tok-789-abcdef and pa55-word!')).toBe(`token ${MASK} and ${MASK}`);
});

test('a user without procedure gets its static credentials and nothing is sent', async () => {
  const session = await authenticate(planWith([http('/start')]), 'static', { redactor: new Redactor() });
  expect(seen).toEqual([]);
  expect(session.headers).toEqual({ Authorization: ['Basic YWxpY2U6cGE1NS13b3JkIQ=='] });
});

test('a status >= 400 names user, procedure, step, method, URL; the body is cut to 500 characters and redacted', async () => {
  const plan = planWith([http('/start'), http('/teapot', [], 'pw={{password}}')]);
  const error = (await authenticate(plan, 'alice', { redactor: new Redactor() }).catch((e: unknown) => e)) as MultiAuthError;
  expect(error).toBeInstanceOf(MultiAuthError);
  expect(error.code).toBe('AUTH_HTTP_STATUS');
  expect(error.message).toBe('the server answered HTTP 418');
  expect(error.context).toEqual({ user: 'alice', procedure: 'flow', step: 1, stepKind: 'http', method: 'POST', url: `${server.url}/teapot`, status: 418 });
  expect(error.details[0]).toBe(`the server says: rejected pw=${MASK}`);
  const body = error.details.find((line) => line.startsWith('response body: ')) ?? '';
  expect(body).toContain(`"message":"rejected pw=${MASK}"`);
  expect(body).not.toContain('pa55');
  expect(body.length).toBeLessThan('response body: '.length + 500 + 40);
  expect(error.render()).toContain('while signing in user "alice", procedure "flow", step 2 (http)');
});

test('a dialect\'s protocol rules apply on top of the status: a GraphQL errors array fails with HTTP 200', async () => {
  const graphql = { ...http('/graphql'), dialect: 'graphql' as const };
  const error = (await authenticate(planWith([graphql]), 'alice', { redactor: new Redactor() }).catch((e: unknown) => e)) as MultiAuthError;
  expect(error).toBeInstanceOf(MultiAuthError);
  expect(error.code).toBe('AUTH_PROTOCOL');
  expect(error.message).toContain('Invalid password');
  expect(error.context).toMatchObject({ user: 'alice', procedure: 'flow', step: 0, method: 'POST', url: `${server.url}/graphql` });
  const down = { ...http('/graphql-bad-gateway'), dialect: 'graphql' as const };
  const status = (await authenticate(planWith([down]), 'alice', { redactor: new Redactor() }).catch((e: unknown) => e)) as MultiAuthError;
  expect(status.code).toBe('AUTH_HTTP_STATUS');
  expect(status.context?.status).toBe(502);
});

test('an extraction that finds nothing fails with the step that ran it', async () => {
  const plan = planWith([http('/start'), http('/finish', [ex('missing', 'header', 'x-nope')])]);
  const error = (await authenticate(plan, 'alice', { redactor: new Redactor() }).catch((e: unknown) => e)) as MultiAuthError;
  expect(error.code).toBe('EXTRACTION_NOT_FOUND');
  expect(error.context).toMatchObject({ user: 'alice', procedure: 'flow', step: 1, stepKind: 'http' });
});

test('an injection of a variable that was never set fails with INJECTION_VARIABLE_UNSET', async () => {
  const plan = planWith([http('/start')], [{ location: 'header', key: 'X', variable: 'never', origin: [] }]);
  const error = (await authenticate(plan, 'alice', { redactor: new Redactor() }).catch((e: unknown) => e)) as MultiAuthError;
  expect(error.code).toBe('INJECTION_VARIABLE_UNSET');
  expect(error.context).toMatchObject({ user: 'alice', procedure: 'flow' });
});

test('a browser operation without a browser fails clearly, saying how to give one', async () => {
  const plan = planWith([{ tech: 'browser', origin: [], project: { tests: [] }, extractions: [] }]);
  const error = (await authenticate(plan, 'alice', { redactor: new Redactor() }).catch((e: unknown) => e)) as MultiAuthError;
  expect(error).toBeInstanceOf(MultiAuthError);
  expect(error.message).toBe('this sign-in runs a browser, and none was given');
  expect(error.hint).toContain('--browser-path');
  expect(error.context).toMatchObject({ user: 'alice', procedure: 'flow', step: 0, stepKind: 'browser' });
});

test('an unknown user is USER_UNKNOWN with the closest name', () => {
  expect(() => findPlanUser(planWith([]), 'Alice')).toThrow('no user named "Alice" (did you mean "alice"?)');
});
