import { test, expect } from '@playwright/test';
import { closeDispatchers } from '../../src/runtime/http/dispatcher.js';
import { selfSignedCertificate, sendJson, startHttpServer, startHttpsServer, type RunningServer } from '../support/servers/node-http.js';
import { freePort } from '../support/ports.js';
import { rawGrant, startFaultServer, startRawServer, tokenFor, type FaultServer } from './fault-server.js';
import { DEFAULT_RETRY_POLICY } from '../../src/runtime/http/retry.js';
import { expectClearFailure, expectGolden, faultPlan, signIn, signInFailure } from './fault-config.js';

/**
 * Each fault of issue 8, against a real server on 127.0.0.1, through loadConfig -> compile ->
 * authenticate: one MultiAuthError naming the user, procedure, step and cause, in bounded time,
 * with no password or token in its text. The rendered errors are golden files quoted by
 * docs/errors.md.
 */
let faults: FaultServer;

test.beforeAll(async () => {
  faults = await startFaultServer();
});

test.afterAll(async () => {
  await faults.close();
  await closeDispatchers();
});

test.beforeEach(() => faults.reset());

test('500: AUTH_HTTP_STATUS at once (not retried), the echoed password masked', async () => {
  const plan = faultPlan([{ name: 'alice', url: `${faults.url}/500` }]);
  const failure = await signInFailure(plan, 'alice');
  expect(failure.error.code).toBe('AUTH_HTTP_STATUS');
  expect(failure.error.message).toBe('the server answered HTTP 500 (Internal Server Error)');
  expect(failure.error.context?.status).toBe(500);
  expect(faults.hits.get('/500')).toBe(1);
  expect(failure.text).toContain('"password":"********"');
  expectClearFailure(failure, 'alice');
  expectGolden('http-500', failure.text);
});

test('429 with Retry-After (seconds): waits as asked, then signs in', async () => {
  const plan = faultPlan([{ name: 'alice', url: `${faults.url}/429-then-ok` }]);
  const started = Date.now();
  const session = await signIn(plan, 'alice');
  const elapsed = Date.now() - started;
  expect(session.headers.Authorization).toEqual([`Bearer ${tokenFor('alice')}`]);
  expect(faults.hits.get('/429-then-ok')).toBe(2);
  expect(elapsed).toBeGreaterThanOrEqual(950);
  expect(elapsed).toBeLessThan(4_000);
});

test('429 with Retry-After (HTTP-date): waits until then, then signs in', async () => {
  const plan = faultPlan([{ name: 'alice', url: `${faults.url}/429-date-then-ok` }]);
  const session = await signIn(plan, 'alice');
  expect(session.headers.Authorization).toEqual([`Bearer ${tokenFor('alice')}`]);
  expect(faults.hits.get('/429-date-then-ok')).toBe(2);
});

test('503 without Retry-After: retried after a short backoff', async () => {
  const plan = faultPlan([{ name: 'alice', url: `${faults.url}/503-then-ok` }]);
  const started = Date.now();
  await signIn(plan, 'alice');
  expect(faults.hits.get('/503-then-ok')).toBe(2);
  expect(Date.now() - started).toBeLessThan(2_000);
});

test('429 every time: retried once, no sooner than Retry-After (as the server saw it), then the error says so', async () => {
  const plan = faultPlan([{ name: 'alice', url: `${faults.url}/429-always` }]);
  const failure = await signInFailure(plan, 'alice');
  expect(failure.error.code).toBe('AUTH_HTTP_STATUS');
  expect(failure.error.message).toBe('the server answered HTTP 429 (Too Many Requests) after 2 attempts');
  expect(failure.error.context?.status).toBe(429);
  expect(failure.error.details).toContain('earlier attempts: HTTP 429 (then waited 1 s)');
  expect(failure.error.details).toContain('retried once, as late as Retry-After asked, and refused again: a sign-in is not sent a third time after a 429');
  expect(failure.error.hint).toMatch(/^The server is limiting sign-ins and asked to come back in 1 s \(Retry-After: 1\); it was retried once, as late as asked, and this run does not try this user again\. Wait/);
  const [first, second, ...more] = faults.arrivals.get('/429-always') ?? [];
  expect(more).toEqual([]);
  expect(second! - first!).toBeGreaterThanOrEqual(1_000);
  expectClearFailure(failure, 'alice');
  expectGolden('http-429-retried', failure.text);
});

test('429 without Retry-After: not retried, and the error says why and what to do', async () => {
  const plan = faultPlan([{ name: 'alice', url: `${faults.url}/429-bare` }]);
  const failure = await signInFailure(plan, 'alice');
  expect(failure.error.message).toBe('the server answered HTTP 429 (Too Many Requests)');
  expect(failure.error.details).toContain('not retried: the 429 had no Retry-After saying when to come back, and a sign-in sent again sooner counts against the account\'s limit');
  expect(failure.error.hint).toMatch(/^The server is limiting sign-ins and did not say when to come back \(no Retry-After\); it was not retried/);
  expect(faults.hits.get('/429-bare')).toBe(1);
  expectClearFailure(failure, 'alice');
});

test('429 asking for longer than the step\'s timeout leaves: not retried, saying what the server asked', async () => {
  const plan = faultPlan([{ name: 'alice', url: `${faults.url}/429-long` }]);
  const failure = await signInFailure(plan, 'alice');
  expect(failure.error.code).toBe('AUTH_HTTP_STATUS');
  expect(failure.error.message).toBe('the server answered HTTP 429 (Too Many Requests)');
  expect(failure.text).toMatch(/not retried: the server asked to wait 120 s \(Retry-After\), more than the (24\.\d|25) s the request's timeout leaves for it \(5 s are kept for the retry itself\)/);
  expect(failure.error.hint).toContain('asked to come back in 2 min (Retry-After: 120); it was not retried');
  expect(faults.hits.get('/429-long')).toBe(1);
  expect(failure.elapsedMs).toBeLessThan(1_500);
  expectClearFailure(failure, 'alice');
});

test('429 with a Retry-After within the step\'s timeout (6 s of 30) is honoured, though longer than the 5 s other retries may wait', async () => {
  const plan = faultPlan([{ name: 'alice', url: `${faults.url}/429-6-then-ok` }]);
  const session = await signIn(plan, 'alice');
  expect(session.headers.Authorization).toEqual([`Bearer ${tokenFor('alice')}`]);
  const [first, second] = faults.arrivals.get('/429-6-then-ok') ?? [];
  expect(second! - first!).toBeGreaterThanOrEqual(6_000);
});

test('401 (wrong credentials) is never retried', async () => {
  const plan = faultPlan([{ name: 'alice', url: `${faults.url}/401` }]);
  const failure = await signInFailure(plan, 'alice');
  expect(failure.error.code).toBe('AUTH_HTTP_STATUS');
  expect(failure.error.context?.status).toBe(401);
  expect(faults.hits.get('/401')).toBe(1);
  expectClearFailure(failure, 'alice');
});

test('a response slower than `timeout`: AUTH_TIMEOUT within the timeout, not retried', async () => {
  const plan = faultPlan([{ name: 'alice', url: `${faults.url}/slow`, timeout: 1 }]);
  const failure = await signInFailure(plan, 'alice');
  expect(failure.error.code).toBe('AUTH_TIMEOUT');
  expect(failure.error.message).toBe('no answer within 1 s');
  expect(faults.hits.get('/slow')).toBe(1);
  expect(failure.elapsedMs).toBeGreaterThanOrEqual(900);
  expect(failure.elapsedMs).toBeLessThan(2_500);
  expectClearFailure(failure, 'alice');
  expectGolden('timeout', failure.text);
});

test('connection refused: AUTH_NETWORK after 3 attempts, in well under a second or two', async () => {
  const url = `http://127.0.0.1:${await freePort()}/login`;
  const failure = await signInFailure(faultPlan([{ name: 'alice', url }]), 'alice');
  expect(failure.error.code).toBe('AUTH_NETWORK');
  expect(failure.error.message).toBe('request failed: ECONNREFUSED after 3 attempts');
  expect(failure.error.details.join('\n')).toMatch(/^earlier attempts: ECONNREFUSED \(then waited 0\.\d s\), ECONNREFUSED \(then waited 0\.\d s\)$/);
  expect(failure.error.hint).toContain('Nothing is listening');
  // Two backoff waits: 125-250 ms, then 250-500 ms.
  expect(failure.elapsedMs).toBeGreaterThanOrEqual(370);
  expect(failure.elapsedMs).toBeLessThan(2_500);
  expectClearFailure(failure, 'alice');
  expectGolden('connection-refused', failure.text);
});

test('a policy of no retries (what MULTIAUTH_RETRIES=0 sets for a process) turns retrying off', async () => {
  const url = `http://127.0.0.1:${await freePort()}/login`;
  const retry = { ...DEFAULT_RETRY_POLICY, retries: 0 };
  const failure = await signInFailure(faultPlan([{ name: 'alice', url }]), 'alice', { retry });
  expect(failure.error.message).toBe('request failed: ECONNREFUSED');
  expect(failure.error.details).toEqual([]);
  const limited = faultPlan([{ name: 'bob', url: `${faults.url}/429-then-ok` }]);
  const rate = await signInFailure(limited, 'bob', { retry });
  expect(rate.error.message).toBe('the server answered HTTP 429 (Too Many Requests)');
  expect(faults.hits.get('/429-then-ok')).toBe(1);
});

test('a connection reset before any answer is retried, and the third attempt signs in', async () => {
  const raw = await startRawServer((socket, n) => (n <= 2 ? socket.resetAndDestroy() : socket.end(rawGrant('alice'))));
  try {
    const session = await signIn(faultPlan([{ name: 'alice', url: `${raw.url}/login` }]), 'alice');
    expect(session.headers.Authorization).toEqual([`Bearer ${tokenFor('alice')}`]);
    expect(raw.connections).toBe(3);
  } finally {
    await raw.close();
  }
});

test('a connection reset mid-body: AUTH_NETWORK, not retried (the server had answered), no token shown', async () => {
  const partial = `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{"access_token":"${tokenFor('alice')}",`;
  const raw = await startRawServer((socket) => socket.write(partial, () => setTimeout(() => socket.resetAndDestroy(), 50)));
  try {
    const failure = await signInFailure(faultPlan([{ name: 'alice', url: `${raw.url}/login` }]), 'alice');
    expect(failure.error.code).toBe('AUTH_NETWORK');
    expect(failure.error.message).toMatch(/^request failed: (ECONNRESET|UND_ERR_SOCKET)$/);
    expect(failure.text).toContain('not retried: the connection broke after the server had begun to answer (HTTP 200), so the server had handled the request');
    expect(raw.connections).toBe(1);
    expectClearFailure(failure, 'alice', [tokenFor('alice')]);
    expectGolden('reset-mid-body', failure.text);
  } finally {
    await raw.close();
  }
});

test('malformed JSON: EXTRACTION_NOT_FOUND saying the body does not parse, the token in it not shown', async () => {
  const failure = await signInFailure(faultPlan([{ name: 'alice', url: `${faults.url}/malformed-json` }]), 'alice');
  expect(failure.error.code).toBe('EXTRACTION_NOT_FOUND');
  expect(failure.error.message).toBe(
    'extraction "access_token" found nothing: no body value "access_token": the latest response body is not valid JSON (it does not parse)',
  );
  expectClearFailure(failure, 'alice', [tokenFor('alice')]);
  expectGolden('malformed-json', failure.text);
});

test('HTML instead of JSON: EXTRACTION_NOT_FOUND saying it is an HTML page, never the page as a token', async () => {
  const failure = await signInFailure(faultPlan([{ name: 'alice', url: `${faults.url}/html` }]), 'alice');
  expect(failure.error.code).toBe('EXTRACTION_NOT_FOUND');
  expect(failure.error.message).toBe(
    'extraction "access_token" found nothing: no body value "access_token": the latest response body is an HTML page, not JSON',
  );
  expectClearFailure(failure, 'alice', [tokenFor('alice')]);
  expectGolden('html-instead-of-json', failure.text);
});

test('a token missing from the response: EXTRACTION_NOT_FOUND listing the keys there, not their values', async () => {
  const failure = await signInFailure(faultPlan([{ name: 'alice', url: `${faults.url}/no-token` }]), 'alice');
  expect(failure.error.code).toBe('EXTRACTION_NOT_FOUND');
  expect(failure.error.message).toBe('extraction "access_token" found nothing: no body value "access_token" in the exchange');
  expect(failure.text).toContain('seen: latest response body: JSON, top-level keys refresh_token, token_type');
  expectClearFailure(failure, 'alice', [tokenFor('alice')]);
  expectGolden('token-missing', failure.text);
});

test('a redirect loop past follow_redirects: AUTH_REDIRECT after exactly that many hops', async () => {
  const failure = await signInFailure(faultPlan([{ name: 'alice', url: `${faults.url}/loop`, followRedirects: 3 }]), 'alice');
  expect(failure.error.code).toBe('AUTH_REDIRECT');
  expect(failure.error.message).toBe('more than 3 redirects');
  expect(faults.hits.get('/loop')).toBe(4);
  expectClearFailure(failure, 'alice');
  expectGolden('redirect-loop', failure.text);
});

test('a 307 to another origin: AUTH_REDIRECT before the body (the password) goes there', async () => {
  const elsewhere: string[] = [];
  const other = await startHttpServer((req, res) => {
    elsewhere.push(`${req.method} ${req.url}`);
    sendJson(res, 200, { access_token: 'stolen' });
  });
  try {
    const port = new URL(other.url).port;
    const failure = await signInFailure(faultPlan([{ name: 'alice', url: `${faults.url}/307-away?to=${port}` }]), 'alice');
    expect(failure.error.code).toBe('AUTH_REDIRECT');
    expect(failure.error.message).toBe(`refused a redirect that would send the request body to another origin (${other.url})`);
    expect(faults.hits.get('/307-away')).toBe(1);
    expect(elsewhere).toEqual([]);
    expectClearFailure(failure, 'alice');
    expectGolden('redirect-body-away', failure.text);
  } finally {
    await other.close();
  }
});

test('a digest challenge with an unknown algorithm: DIGEST_UNSUPPORTED naming it', async () => {
  const failure = await signInFailure(faultPlan([{ name: 'alice', url: `${faults.url}/digest-sha512`, tech: 'digest' }]), 'alice');
  expect(failure.error.code).toBe('DIGEST_UNSUPPORTED');
  expect(failure.text).toContain('SHA-512-256');
  expect(faults.hits.get('/digest-sha512')).toBe(1);
  expectClearFailure(failure, 'alice');
  expectGolden('digest-unknown-algorithm', failure.text);
});

test.describe('TLS', () => {
  let secure: RunningServer;
  let connections = 0;

  test.beforeAll(async () => {
    secure = await startHttpsServer(selfSignedCertificate(), (_req, res) => sendJson(res, 200, { access_token: tokenFor('alice') }));
    secure.server.on('connection', () => connections++);
  });
  test.afterAll(async () => secure.close());

  test('a self-signed certificate: AUTH_NETWORK naming the TLS error, not retried', async () => {
    connections = 0;
    const failure = await signInFailure(faultPlan([{ name: 'alice', url: `${secure.url}/login` }]), 'alice');
    expect(failure.error.code).toBe('AUTH_NETWORK');
    expect(failure.error.message).toMatch(/^TLS certificate not trusted \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\)$/);
    expect(failure.error.hint).toContain('insecure: true');
    expect(connections).toBe(1);
    expectClearFailure(failure, 'alice');
    expectGolden('tls-self-signed', failure.text);
  });

  test('the same server with insecure: true signs in', async () => {
    const session = await signIn(faultPlan([{ name: 'alice', url: `${secure.url}/login`, insecure: true }]), 'alice');
    expect(session.headers.Authorization).toEqual([`Bearer ${tokenFor('alice')}`]);
  });
});
