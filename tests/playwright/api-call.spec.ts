import { test, expect } from '@playwright/test';
import type { Request } from 'playwright-core';
import { fetchArguments, readApiCall } from '../../src/playwright/api-call.js';
import { headerPairs, playwrightHeaders } from '../../src/playwright/headers.js';
import { applySession } from '../../src/runtime/session/apply.js';
import { makeTestSession as session } from '../support/session.js';

const BASE = 'http://127.0.0.1:4010/app/';

test('playwrightHeaders: the one place headers become a record, joined by the one rule', () => {
  expect(playwrightHeaders([['Accept', 'a'], ['X-One', '1'], ['accept', 'b'], ['Cookie', 'a=1'], ['cookie', 'b=2']])).toEqual({
    Accept: 'a, b',
    'X-One': '1',
    Cookie: 'a=1; b=2',
  });
  expect(headerPairs({ a: '1', b: undefined })).toEqual([['a', '1']]);
  expect(headerPairs(undefined)).toEqual([]);
});

test('readApiCall: the URL resolved against baseURL with params added as Playwright adds them', () => {
  expect(readApiCall('get', 'items?x=1', { params: { a: 'b c', n: 2, skip: undefined as unknown as string } }, BASE)?.request.url).toBe(
    'http://127.0.0.1:4010/app/items?x=1&a=b+c&n=2',
  );
  expect(readApiCall('get', '/items', { params: '?a=%20' }, BASE)?.request.url).toBe('http://127.0.0.1:4010/items?a=%20');
  expect(readApiCall('get', '/items?x=1', { params: new URLSearchParams({ a: '1' }) }, BASE)?.request.url).toBe('http://127.0.0.1:4010/items?x=1&a=1');
  expect(readApiCall('get', '/items', undefined, undefined)).toBeUndefined();
});

test('readApiCall: the method (fetch takes it from its options) and the headers', () => {
  const call = readApiCall('fetch', 'http://a.test/', { method: 'put', headers: { 'X-Own': '1' } }, undefined);
  expect(call?.request).toEqual({ method: 'PUT', url: 'http://a.test/', headers: [['X-Own', '1']] });
  expect(readApiCall('fetch', 'http://a.test/', {}, undefined)?.request.method).toBe('GET');
  expect(readApiCall('delete', 'http://a.test/', { method: 'POST' }, undefined)?.request.method).toBe('DELETE');
});

test('readApiCall: data and form bodies are read for the session rules; others pass untouched', () => {
  expect(readApiCall('post', 'http://a.test/', { data: 'a=1' }, undefined)?.request.body).toBe('a=1');
  expect(readApiCall('post', 'http://a.test/', { data: { a: 1 } }, undefined)?.request.body).toEqual({ json: { a: 1 } });
  expect(readApiCall('post', 'http://a.test/', { form: { a: 1 } }, undefined)?.request.body).toEqual({ form: { a: 1 } });
  const buffer = Buffer.from('raw');
  const raw = readApiCall('post', 'http://a.test/', { data: buffer, timeout: 5 }, undefined);
  expect(raw?.request.body).toBeUndefined();
  expect(raw?.rest).toEqual({ data: buffer, timeout: 5 });
  const multipart = readApiCall('post', 'http://a.test/', { multipart: { f: 'v' } }, undefined);
  expect(multipart?.request.body).toBeUndefined();
  expect(multipart?.rest).toEqual({ multipart: { f: 'v' } });
});

test("readApiCall: a Request is read as Playwright reads it: its URL, method, headers and body", () => {
  const request = {
    url: () => 'http://a.test/form',
    method: () => 'POST',
    headers: () => ({ 'content-type': 'text/plain' }),
    postDataBuffer: () => Buffer.from('hello'),
  } as unknown as Request;
  const call = readApiCall('fetch', request, undefined, undefined);
  expect(call?.request).toEqual({ method: 'POST', url: 'http://a.test/form', headers: [['content-type', 'text/plain']] });
  expect(call?.rest).toEqual({ data: Buffer.from('hello') });
  expect(readApiCall('fetch', request, { headers: { a: '1' } }, undefined)?.request.headers).toEqual([['a', '1']]);
});

test('fetchArguments: what applySession decided, in Playwright terms, the other options kept', () => {
  const s = session({ headers: { Authorization: ['Bearer t'], 'X-Multi': ['1', '2'] }, query: { k: ['a b'] }, body: { set: { token: 't' } } });
  const call = readApiCall('post', '/items', { params: { x: '1' }, headers: { 'X-Own': 'o' }, data: { a: 1 }, timeout: 5 }, BASE);
  if (!call) throw new Error('unresolved');
  const [url, options] = fetchArguments(call, applySession(s, call.request, { cookieJar: true }));
  expect(url).toBe('http://127.0.0.1:4010/items?x=1&k=a%20b');
  expect(options).toEqual({
    timeout: 5,
    method: 'POST',
    headers: { 'X-Own': 'o', Authorization: 'Bearer t', 'X-Multi': '1, 2' },
    data: { a: 1, token: 't' },
  });
  const form = readApiCall('post', '/items', { form: { a: 1 } }, BASE);
  if (!form) throw new Error('unresolved');
  expect(fetchArguments(form, applySession(s, form.request)).at(1)).toMatchObject({ form: { a: 1, token: 't' } });
});
