import { test, expect } from '@playwright/test';
import { gzipSync } from 'node:zlib';
import { MultiAuthError } from '../../../src/core/errors.js';
import { newCookieJar } from '../../../src/runtime/http/cookie-jar.js';
import { sendRequest } from '../../../src/runtime/http/transport.js';
import type { SendOptions } from '../../../src/runtime/http/types.js';
import { freePort } from '../../support/ports.js';
import { readBody, sendJson, startHttpServer, type RunningServer } from '../../support/servers/node-http.js';

let server: RunningServer;
const hits: Array<{ method: string; url: string; cookie?: string; authorization?: string; body: string; contentType?: string }> = [];

test.beforeAll(async () => {
  server = await startHttpServer(async (req, res) => {
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://x');
    hits.push({
      method: req.method ?? '',
      url: req.url ?? '',
      cookie: req.headers.cookie,
      authorization: req.headers.authorization,
      body,
      contentType: req.headers['content-type'],
    });
    const redirect = url.pathname.match(/^\/redirect\/(\d+)$/);
    if (redirect) {
      res.writeHead(Number(redirect[1]), { location: url.searchParams.get('to') ?? '/echo' }).end();
    } else if (url.pathname === '/login') {
      res.writeHead(302, { location: '/step2', 'set-cookie': ['a=1; Path=/', 'b=2; Path=/; HttpOnly'] }).end();
    } else if (url.pathname === '/step2') {
      res.writeHead(303, { location: '/final?code=xyz', 'set-cookie': 'c=3; Path=/final' }).end();
    } else if (url.pathname === '/loop') {
      const n = Number(url.searchParams.get('n') ?? 0);
      res.writeHead(302, { location: `/loop?n=${n + 1}` }).end();
    } else if (url.pathname === '/slow') {
      setTimeout(() => res.end('late'), 2_000);
    } else if (url.pathname === '/gzip') {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/json' }).end(gzipSync('{"zipped":true}'));
    } else if (url.pathname === '/big' || url.pathname === '/almost-big') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('x'.repeat(url.pathname === '/big' ? 5 * 1024 * 1024 + 1 : 5 * 1024 * 1024));
    } else if (url.pathname === '/big-gzip') {
      res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('y'.repeat(6 * 1024 * 1024)));
    } else {
      sendJson(res, 200, { method: req.method, url: req.url, body, cookie: req.headers.cookie ?? null });
    }
  });
});

test.afterAll(async () => server.close());
test.beforeEach(() => {
  hits.length = 0;
});

function options(overrides: Partial<SendOptions> = {}): SendOptions {
  return { timeoutMs: 5_000, followRedirects: 20, insecure: false, jar: newCookieJar(), ...overrides };
}

test('a plain request records request, response, URL and the text body', async () => {
  const observation = await sendRequest(
    { method: 'POST', url: `${server.url}/echo?x=1`, headers: [['Content-Type', 'text/plain'], ['X-Two', 'a'], ['X-Two', 'b']], body: 'hello' },
    options(),
  );
  expect(observation.urls).toEqual([`${server.url}/echo?x=1`]);
  expect(observation.requests).toHaveLength(1);
  expect(observation.responses).toHaveLength(1);
  expect(observation.responses[0]?.status).toBe(200);
  expect(JSON.parse(observation.responses[0]?.body ?? '')).toEqual({ method: 'POST', url: '/echo?x=1', body: 'hello', cookie: null });
  expect(observation.responses[0]?.headers.some(([name, value]) => name.toLowerCase() === 'content-type' && value === 'application/json')).toBe(true);
});

test('a redirect chain records every hop, its cookies, and sends the jar on each hop', async () => {
  const observation = await sendRequest(
    { method: 'POST', url: `${server.url}/login`, headers: [['Content-Type', 'application/x-www-form-urlencoded']], body: 'u=1' },
    options(),
  );
  expect(observation.urls).toEqual([`${server.url}/login`, `${server.url}/step2`, `${server.url}/final?code=xyz`]);
  expect(observation.responses.map((r) => r.status)).toEqual([302, 303, 200]);
  expect(observation.cookies.map((c) => [c.name, c.value, c.path, c.httpOnly])).toEqual([
    ['a', '1', '/', false],
    ['b', '2', '/', true],
    ['c', '3', '/final', false],
  ]);
  expect(hits.map((h) => [h.method, h.url, h.cookie ?? null, h.body])).toEqual([
    ['POST', '/login', null, 'u=1'],
    ['GET', '/step2', 'a=1; b=2', ''],
    ['GET', '/final?code=xyz', 'c=3; a=1; b=2', ''],
  ]);
  expect(hits[1]?.contentType).toBeUndefined();
});

for (const [status, method, keepsBody] of [
  [301, 'GET', false],
  [302, 'GET', false],
  [303, 'GET', false],
  [307, 'POST', true],
  [308, 'POST', true],
] as const) {
  test(`a POST answered ${status} is followed as ${method}${keepsBody ? ' with its body' : ' without a body'}`, async () => {
    await sendRequest(
      { method: 'POST', url: `${server.url}/redirect/${status}`, headers: [['Content-Type', 'text/plain']], body: 'payload' },
      options(),
    );
    expect(hits[1]?.method).toBe(method);
    expect(hits[1]?.body).toBe(keepsBody ? 'payload' : '');
    expect(hits[1]?.contentType).toBe(keepsBody ? 'text/plain' : undefined);
  });
}

test('a PUT answered 302 keeps its method and body; a 303 turns it into a GET', async () => {
  await sendRequest({ method: 'PUT', url: `${server.url}/redirect/302`, headers: [], body: 'p' }, options());
  expect(hits[1]).toMatchObject({ method: 'PUT', body: 'p' });
  hits.length = 0;
  await sendRequest({ method: 'PUT', url: `${server.url}/redirect/303`, headers: [], body: 'p' }, options());
  expect(hits[1]).toMatchObject({ method: 'GET', body: '' });
});

test('follow_redirects 0 returns the redirect itself', async () => {
  const observation = await sendRequest({ method: 'POST', url: `${server.url}/login`, headers: [] }, options({ followRedirects: 0 }));
  expect(observation.responses.map((r) => r.status)).toEqual([302]);
  expect(observation.cookies.map((c) => c.name)).toEqual(['a', 'b']);
  expect(hits).toHaveLength(1);
});

test('the redirect limit is enforced: N hops pass, N+1 fail with AUTH_REDIRECT', async () => {
  const ok = await sendRequest({ method: 'GET', url: `${server.url}/redirect/302?to=/redirect/302`, headers: [] }, options({ followRedirects: 2 }));
  expect(ok.responses.map((r) => r.status)).toEqual([302, 302, 200]);
  const error = await sendRequest({ method: 'GET', url: `${server.url}/loop`, headers: [] }, options({ followRedirects: 3 })).catch((e) => e);
  expect(error).toBeInstanceOf(MultiAuthError);
  expect(error.code).toBe('AUTH_REDIRECT');
  expect(error.message).toBe('more than 3 redirects');
  expect(hits).toHaveLength(3 + 4);
});

test('Authorization goes along same-origin redirects and is dropped cross-origin', async () => {
  const other = await startHttpServer((req, res) => sendJson(res, 200, { authorization: req.headers.authorization ?? null, cookie: req.headers.cookie ?? null }));
  try {
    const headers: Array<[string, string]> = [['Authorization', 'Bearer secret'], ['Cookie', 'mine=1']];
    const same = await sendRequest({ method: 'GET', url: `${server.url}/redirect/302?to=/echo`, headers }, options());
    expect(hits[1]?.authorization).toBe('Bearer secret');
    expect(hits[1]?.cookie).toBe('mine=1');
    expect(same.responses.at(-1)?.status).toBe(200);
    const cross = await sendRequest(
      { method: 'GET', url: `${server.url}/redirect/302?to=${encodeURIComponent(`${other.url}/x`)}`, headers },
      options(),
    );
    expect(JSON.parse(cross.responses.at(-1)?.body ?? '')).toEqual({ authorization: null, cookie: null });
  } finally {
    await other.close();
  }
});

for (const status of [307, 308]) {
  test(`a ${status} to another origin is refused before the body goes there; the same origin gets it`, async () => {
    const received: string[] = [];
    const other = await startHttpServer(async (req, res) => {
      received.push(`${req.method} ${req.url} ${await readBody(req)}`);
      sendJson(res, 200, { access_token: 'stolen' });
    });
    try {
      const body = 'grant_type=authorization_code&code=CODE123&code_verifier=VERIFIER456&client_secret=SECRET789';
      const request = { method: 'POST', url: `${server.url}/redirect/${status}?to=${encodeURIComponent(`${other.url}/token`)}`, headers: [['Content-Type', 'application/x-www-form-urlencoded']] as Array<[string, string]>, body };
      const error = await sendRequest(request, options()).catch((e) => e);
      expect(error).toBeInstanceOf(MultiAuthError);
      expect(error.code).toBe('AUTH_REDIRECT');
      expect(error.message).toBe(`refused a redirect that would send the request body to another origin (${other.url})`);
      expect(error.context.status).toBe(status);
      expect(error.hint).toContain('follow_redirects: 0');
      expect(JSON.stringify({ message: error.message, details: error.details, hint: error.hint, context: error.context })).not.toMatch(/CODE123|VERIFIER456|SECRET789/);
      expect(received).toEqual([]);
      expect(hits).toHaveLength(1);

      hits.length = 0;
      await sendRequest({ ...request, url: `${server.url}/redirect/${status}?to=/echo` }, options());
      expect(hits.map((h) => h.body)).toEqual([body, body]);
    } finally {
      await other.close();
    }
  });
}

test('a request slower than the timeout fails with AUTH_TIMEOUT', async () => {
  const started = Date.now();
  const error = await sendRequest({ method: 'GET', url: `${server.url}/slow`, headers: [] }, options({ timeoutMs: 300 })).catch((e) => e);
  expect(error).toBeInstanceOf(MultiAuthError);
  expect(error.code).toBe('AUTH_TIMEOUT');
  expect(error.message).toBe('no answer within 0.3 s');
  expect(Date.now() - started).toBeLessThan(1_500);
});

test('a refused connection fails with AUTH_NETWORK naming ECONNREFUSED', async () => {
  const port = await freePort();
  const error = await sendRequest({ method: 'GET', url: `http://127.0.0.1:${port}/`, headers: [] }, options()).catch((e) => e);
  expect(error).toBeInstanceOf(MultiAuthError);
  expect(error.code).toBe('AUTH_NETWORK');
  expect(error.message).toContain('ECONNREFUSED');
  expect(error.hint).toContain('Nothing is listening');
  expect(error.context).toMatchObject({ method: 'GET', url: `http://127.0.0.1:${port}/` });
});

test('only http and https URLs are sent', async () => {
  const error = await sendRequest({ method: 'GET', url: 'file:///etc/passwd', headers: [] }, options()).catch((e) => e);
  expect(error.code).toBe('AUTH_NETWORK');
  expect(error.message).toBe('unsupported URL scheme "file:"');
});

test('gzip bodies are decoded; a body over 5 MB fails with AUTH_NETWORK', async () => {
  const zipped = await sendRequest({ method: 'GET', url: `${server.url}/gzip`, headers: [['Accept-Encoding', 'gzip']] }, options());
  expect(zipped.responses[0]?.body).toBe('{"zipped":true}');
  for (const path of ['/big', '/big-gzip']) {
    const error = await sendRequest({ method: 'GET', url: `${server.url}${path}`, headers: [] }, options()).catch((e) => e);
    expect(error).toBeInstanceOf(MultiAuthError);
    expect(error.code).toBe('AUTH_NETWORK');
    expect(error.message).toBe('the response body is larger than 5 MB');
  }
  const fits = await sendRequest({ method: 'GET', url: `${server.url}/almost-big`, headers: [] }, options());
  expect(fits.responses[0]?.body?.length).toBe(5 * 1024 * 1024);
});

test('cookies of one sign-in jar are sent by later requests of the same jar only', async () => {
  const jar = newCookieJar();
  await sendRequest({ method: 'POST', url: `${server.url}/login`, headers: [] }, options({ jar, followRedirects: 0 }));
  const again = await sendRequest({ method: 'GET', url: `${server.url}/echo`, headers: [['Cookie', 'own=0']] }, options({ jar }));
  expect(JSON.parse(again.responses[0]?.body ?? '').cookie).toBe('own=0; a=1; b=2');
  const fresh = await sendRequest({ method: 'GET', url: `${server.url}/echo`, headers: [] }, options());
  expect(JSON.parse(fresh.responses[0]?.body ?? '').cookie).toBeNull();
});
