import { test, expect } from '@playwright/test';
import { MultiAuthError } from '../../../src/core/errors.js';
import { newCookieJar } from '../../../src/runtime/http/cookie-jar.js';
import { sendRequest } from '../../../src/runtime/http/transport.js';
import type { SendOptions } from '../../../src/runtime/http/types.js';
import { startForwardProxy } from '../../support/proxy.js';
import { selfSignedCertificate, sendJson, startHttpServer, startHttpsServer, type RunningServer } from '../../support/servers/node-http.js';

let secure: RunningServer;
let plain: RunningServer;

test.beforeAll(async () => {
  secure = await startHttpsServer(selfSignedCertificate(), (req, res) => sendJson(res, 200, { tls: true, url: req.url }));
  plain = await startHttpServer((req, res) => sendJson(res, 200, { tls: false, url: req.url }));
});

test.afterAll(async () => {
  await secure.close();
  await plain.close();
});

function options(overrides: Partial<SendOptions> = {}): SendOptions {
  return { timeoutMs: 5_000, followRedirects: 20, insecure: false, jar: newCookieJar(), ...overrides };
}

test('a self-signed certificate fails with AUTH_NETWORK and a hint about insecure', async () => {
  const error = await sendRequest({ method: 'GET', url: `${secure.url}/x`, headers: [] }, options()).catch((e) => e);
  expect(error).toBeInstanceOf(MultiAuthError);
  expect(error.code).toBe('AUTH_NETWORK');
  expect(error.message).toMatch(/^TLS certificate not trusted \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\)$/);
  expect(error.hint).toContain('insecure: true');
});

test('insecure: true accepts the self-signed certificate', async () => {
  const observation = await sendRequest({ method: 'GET', url: `${secure.url}/x`, headers: [] }, options({ insecure: true }));
  expect(JSON.parse(observation.responses[0]?.body ?? '')).toEqual({ tls: true, url: '/x' });
});

test('an http request goes through the proxy', async () => {
  const proxy = await startForwardProxy();
  try {
    const observation = await sendRequest({ method: 'GET', url: `${plain.url}/via`, headers: [] }, options({ proxy: proxy.url }));
    expect(JSON.parse(observation.responses[0]?.body ?? '')).toEqual({ tls: false, url: '/via' });
    const port = new URL(plain.url).port;
    expect(proxy.seen.length).toBe(1);
    expect(proxy.seen[0]).toMatch(new RegExp(`^(CONNECT 127\\.0\\.0\\.1:${port}|GET http://127\\.0\\.0\\.1:${port}/via)$`));
  } finally {
    await proxy.close();
  }
});

test('an https request is tunnelled through the proxy with CONNECT, honouring insecure', async () => {
  const proxy = await startForwardProxy();
  try {
    const port = new URL(secure.url).port;
    const refused = await sendRequest({ method: 'GET', url: `${secure.url}/t`, headers: [] }, options({ proxy: proxy.url })).catch((e) => e);
    expect(refused.code).toBe('AUTH_NETWORK');
    expect(refused.message).toContain('TLS certificate not trusted');
    const observation = await sendRequest({ method: 'GET', url: `${secure.url}/t`, headers: [] }, options({ proxy: proxy.url, insecure: true }));
    expect(JSON.parse(observation.responses[0]?.body ?? '')).toEqual({ tls: true, url: '/t' });
    expect(proxy.seen).toEqual([`CONNECT 127.0.0.1:${port}`, `CONNECT 127.0.0.1:${port}`]);
  } finally {
    await proxy.close();
  }
});

test('a proxy that demands credentials gets them from the proxy URL', async () => {
  const proxy = await startForwardProxy({ requireAuth: `Basic ${Buffer.from('pu:pp').toString('base64')}` });
  try {
    const withAuth = new URL(proxy.url);
    withAuth.username = 'pu';
    withAuth.password = 'pp';
    const observation = await sendRequest({ method: 'GET', url: `${plain.url}/auth`, headers: [] }, options({ proxy: withAuth.href }));
    expect(observation.responses[0]?.status).toBe(200);
    const refused = await sendRequest({ method: 'GET', url: `${plain.url}/auth`, headers: [] }, options({ proxy: proxy.url })).catch((e) => e);
    expect(refused).toBeInstanceOf(MultiAuthError);
    expect(refused.code).toBe('AUTH_NETWORK');
    expect(refused.message).toBe(`the proxy ${proxy.url} answered 407 to the tunnel request`);
    expect(refused.hint).toContain('http://user:password@host:port');
  } finally {
    await proxy.close();
  }
});

test('a proxy that is not running fails with AUTH_NETWORK', async () => {
  const proxy = await startForwardProxy();
  const url = proxy.url;
  await proxy.close();
  const error = await sendRequest({ method: 'GET', url: `${plain.url}/x`, headers: [] }, options({ proxy: url })).catch((e) => e);
  expect(error).toBeInstanceOf(MultiAuthError);
  expect(error.code).toBe('AUTH_NETWORK');
  expect(error.message).toContain('ECONNREFUSED');
});
