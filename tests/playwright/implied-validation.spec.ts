import { test, expect } from '@playwright/test';
import { ImpliedValidation } from '../../src/playwright/implied-validation.js';
import { startHttpServer } from '../support/servers/node-http.js';
import { makeTestSession } from '../support/session.js';

// The memory behind the implied validation of users without a `validation` (issue 24, item 3);
// tests/playwright/denials.spec.ts runs it through the fixtures.

test('the GET remembered is the last one of the same session: a session made later has none yet', () => {
  const memory = new ImpliedValidation();
  const first = makeTestSession({ createdAt: 1 });
  expect(memory.lastGet('alice', first)).toBeUndefined();
  memory.remember('alice', first, 'https://a.test/me');
  memory.remember('alice', first, 'https://a.test/items?page=2');
  expect(memory.lastGet('alice', first)).toBe('https://a.test/items?page=2');
  expect(memory.lastGet('alice', makeTestSession({ createdAt: 2 }))).toBeUndefined();
  expect(memory.lastGet('bob', first)).toBeUndefined();
});

test('only a URL that refuses a request without credentials can show a session alive; asked once per URL', async () => {
  const asked: string[] = [];
  const server = await startHttpServer((req, res) => {
    asked.push(`${req.url} ${req.headers.cookie ?? '-'} ${req.headers.authorization ?? '-'}`);
    if (req.url === '/public') return void res.writeHead(200).end('hello');
    if (req.url === '/redirects') return void res.writeHead(302, { location: '/public' }).end();
    res.writeHead(401).end();
  });
  try {
    const memory = new ImpliedValidation();
    expect(await memory.refusesAnonymous(`${server.url}/me`)).toBe(true);
    expect(await memory.refusesAnonymous(`${server.url}/me`)).toBe(true);
    expect(await memory.refusesAnonymous(`${server.url}/public`)).toBe(false);
    // The redirect is not followed: a login page answering 200 is a refusal.
    expect(await memory.refusesAnonymous(`${server.url}/redirects`)).toBe(true);
    expect(asked).toEqual(['/me - -', '/public - -', '/redirects - -']);
  } finally {
    await server.close();
  }
  // No answer proves nothing.
  expect(await new ImpliedValidation().refusesAnonymous(`${server.url}/me`)).toBe(false);
});
