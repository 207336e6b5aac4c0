import { test, expect } from '@playwright/test';
import { redirectedRequest, refusedBodyRedirect } from '../../../src/runtime/http/redirect.js';
import type { ResolvedRequest } from '../../../src/runtime/http/types.js';

const post: ResolvedRequest = {
  method: 'POST',
  url: 'https://app.test/login?x=1',
  headers: [['Content-Type', 'application/json'], ['Authorization', 'Bearer t'], ['Cookie', 'a=1'], ['X-Keep', 'k']],
  body: '{"a":1}',
};

test('relative locations resolve against the request URL, fragments are kept', () => {
  expect(redirectedRequest(post, 307, '../cb?code=1#frag')?.url).toBe('https://app.test/cb?code=1#frag');
});

test('303 turns any method but HEAD into GET and drops the body and its headers', () => {
  expect(redirectedRequest(post, 303, '/next')).toEqual({
    method: 'GET',
    url: 'https://app.test/next',
    headers: [['Authorization', 'Bearer t'], ['Cookie', 'a=1'], ['X-Keep', 'k']],
  });
  expect(redirectedRequest({ ...post, method: 'HEAD', body: undefined }, 303, '/next')?.method).toBe('HEAD');
});

test('a cross-origin redirect leaves Authorization and Cookie behind', () => {
  const next = redirectedRequest(post, 308, 'https://idp.test/authorize');
  expect(next?.headers).toEqual([['Content-Type', 'application/json'], ['X-Keep', 'k']]);
  expect(next?.body).toBe('{"a":1}');
  expect(next?.method).toBe('POST');
});

test('another port is another origin', () => {
  const next = redirectedRequest({ ...post, url: 'http://127.0.0.1:1000/' }, 302, 'http://127.0.0.1:2000/');
  expect(next?.headers.map(([name]) => name)).toEqual(['X-Keep']);
});

test('no Location, a non-redirect status or a custom scheme end the chain', () => {
  expect(redirectedRequest(post, 302, undefined)).toBeUndefined();
  expect(redirectedRequest(post, 300, '/x')).toBeUndefined();
  expect(redirectedRequest(post, 304, '/x')).toBeUndefined();
  expect(redirectedRequest(post, 302, 'myapp://callback?code=1')).toBeUndefined();
});

test('a redirect that keeps a body is refused across origins only', () => {
  const form: ResolvedRequest = { method: 'POST', url: 'http://127.0.0.1:1000/token', headers: [], body: 'client_secret=s' };
  for (const status of [307, 308]) {
    const next = redirectedRequest(form, status, 'http://127.0.0.1:2000/token');
    expect(next && refusedBodyRedirect(form, next)).toBe('a redirect that would send the request body to another origin (http://127.0.0.1:2000)');
    const same = redirectedRequest(form, status, '/v2/token');
    expect(same && refusedBodyRedirect(form, same)).toBeUndefined();
  }
  const put = redirectedRequest({ ...form, method: 'PUT' }, 302, 'https://127.0.0.1:1000/token');
  expect(put && refusedBodyRedirect({ ...form, method: 'PUT' }, put)).toContain('(https://127.0.0.1:1000)');
  const dropped = redirectedRequest(form, 302, 'http://127.0.0.1:2000/done');
  expect(dropped && refusedBodyRedirect(form, dropped)).toBeUndefined();
});
