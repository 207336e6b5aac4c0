import { test, expect } from '@playwright/test';
import { closeDispatchers, dispatcherFor } from '../../../src/runtime/http/dispatcher.js';

test.afterAll(() => closeDispatchers());

test('one dispatcher per kind of connection, the same one however the requests alternate', () => {
  const plain = dispatcherFor({ insecure: false, connectTimeoutMs: 30_000 });
  const insecure = dispatcherFor({ insecure: true, connectTimeoutMs: 30_000 });
  const proxied = dispatcherFor({ insecure: false, connectTimeoutMs: 30_000, proxy: 'http://127.0.0.1:3128' });
  const slow = dispatcherFor({ insecure: false, connectTimeoutMs: 5_000 });
  expect(new Set([plain, insecure, proxied, slow]).size).toBe(4);
  expect(dispatcherFor({ insecure: false, connectTimeoutMs: 30_000 })).toBe(plain);
  expect(dispatcherFor({ insecure: false, connectTimeoutMs: 30_000 })).toBe(plain);
  expect(dispatcherFor({ insecure: true, connectTimeoutMs: 30_000 })).toBe(insecure);
  expect(dispatcherFor({ insecure: false, connectTimeoutMs: 30_000, proxy: 'http://127.0.0.1:3128' })).toBe(proxied);
});

test('connections made with a client certificate set are never shared with others', () => {
  const certs = [{ origin: 'https://api.test', cert: Buffer.from('CERT'), key: Buffer.from('KEY') }];
  const plain = dispatcherFor({ insecure: false, connectTimeoutMs: 30_000 });
  const withCerts = dispatcherFor({ insecure: false, connectTimeoutMs: 30_000, clientCertificates: certs });
  expect(withCerts).not.toBe(plain);
  expect(dispatcherFor({ insecure: false, connectTimeoutMs: 30_000, clientCertificates: certs })).toBe(withCerts);
  expect(dispatcherFor({ insecure: false, connectTimeoutMs: 30_000, clientCertificates: [...certs] })).not.toBe(withCerts);
});

test('closeDispatchers forgets them: the next ask makes a new one', async () => {
  const before = dispatcherFor({ insecure: false, connectTimeoutMs: 30_000 });
  await closeDispatchers();
  expect(dispatcherFor({ insecure: false, connectTimeoutMs: 30_000 })).not.toBe(before);
});
