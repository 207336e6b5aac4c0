import { test, expect } from '@playwright/test';
import { MultiAuthError } from '../../src/core/errors.js';
import {
  DEFAULT_RETRY_POLICY,
  decideRetry,
  describeRetries,
  parseRetryAfter,
  retryPolicyFromEnv,
  withRetries,
  type AttemptOutcome,
} from '../../src/runtime/http/retry.js';
import { emptyObservation, type HeaderPair, type Observation } from '../../src/runtime/http/observation.js';

/** The retry policy's decisions, one rule per test (pure: no sockets, no clock but the one given). */
const NOW = Date.parse('2030-01-01T00:00:00Z');
const fresh = { retriesDone: 0, waitedMs: 0, now: NOW, deadline: NOW + 30_000 };

function answered(status: number, headers: HeaderPair[] = []): AttemptOutcome {
  const observation: Observation = emptyObservation();
  observation.responses.push({ url: 'http://a.test/login', status, headers, body: '' });
  return { kind: 'response', observation };
}

function failed(code: string, errorCode: 'AUTH_NETWORK' | 'AUTH_TIMEOUT' = 'AUTH_NETWORK', responses = 0): AttemptOutcome {
  const cause = Object.assign(new Error(code), { code });
  return {
    kind: 'error',
    error: new MultiAuthError(errorCode, `request failed: ${code}`, { cause }),
    progress: { responses, answering: responses > 0, ...(responses > 0 && { lastStatus: 200 }) },
  };
}

test('429, 502 and 503 are retried; 500, 504 and every other 4xx are not', () => {
  for (const status of [502, 503]) expect(decideRetry(answered(status), fresh, DEFAULT_RETRY_POLICY).retry, String(status)).toBe(true);
  expect(decideRetry(answered(429, [['Retry-After', '1']]), fresh, DEFAULT_RETRY_POLICY).retry).toBe(true);
  for (const status of [200, 302, 400, 401, 403, 404, 408, 409, 422, 500, 501, 504]) {
    expect(decideRetry(answered(status), fresh, DEFAULT_RETRY_POLICY), String(status)).toEqual({ retry: false });
  }
});

test('refused, reset and DNS-busy connections are retried; TLS, DNS-unknown and timeouts are not', () => {
  for (const code of ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EAI_AGAIN', 'UND_ERR_SOCKET']) {
    expect(decideRetry(failed(code), fresh, DEFAULT_RETRY_POLICY).retry, code).toBe(true);
  }
  for (const code of ['DEPTH_ZERO_SELF_SIGNED_CERT', 'ERR_TLS_CERT_ALTNAME_INVALID', 'ENOTFOUND', 'UND_ERR_RES_EXCEEDED_MAX_SIZE']) {
    expect(decideRetry(failed(code), fresh, DEFAULT_RETRY_POLICY), code).toEqual({ retry: false });
  }
  expect(decideRetry(failed('UND_ERR_HEADERS_TIMEOUT', 'AUTH_TIMEOUT'), fresh, DEFAULT_RETRY_POLICY)).toEqual({ retry: false });
  const redirect = { kind: 'error', error: new MultiAuthError('AUTH_REDIRECT', 'more than 3 redirects'), progress: { responses: 4 } } as const;
  expect(decideRetry(redirect, fresh, DEFAULT_RETRY_POLICY)).toEqual({ retry: false });
});

test('a connection that breaks after an answer began is not retried, and the note says why', () => {
  expect(decideRetry(failed('ECONNRESET', 'AUTH_NETWORK', 1), fresh, DEFAULT_RETRY_POLICY)).toEqual({
    retry: false,
    note: 'not retried: the connection broke after the server had begun to answer (HTTP 200), so the server had handled the request',
  });
  const chain: AttemptOutcome = { ...(failed('ECONNREFUSED') as Extract<AttemptOutcome, { kind: 'error' }>), progress: { responses: 1, lastStatus: 302, answering: false } };
  expect(decideRetry(chain, fresh, DEFAULT_RETRY_POLICY)).toEqual({
    retry: false,
    note: 'not retried: an earlier hop of the redirect chain had been answered (HTTP 302), so the server had handled the request',
  });
});

test('backoff doubles from 250 ms, jitter keeping each wait between half and all of it', () => {
  const wait = (retriesDone: number, random: number) =>
    decideRetry(answered(503), { ...fresh, retriesDone }, { ...DEFAULT_RETRY_POLICY, retries: 5 }, () => random);
  expect(wait(0, 0)).toEqual({ retry: true, failure: 'HTTP 503', delayMs: 125 });
  expect(wait(0, 0.999_999)).toEqual({ retry: true, failure: 'HTTP 503', delayMs: 250 });
  expect(wait(1, 0)).toEqual({ retry: true, failure: 'HTTP 503', delayMs: 250 });
  expect(wait(1, 0.999_999)).toEqual({ retry: true, failure: 'HTTP 503', delayMs: 500 });
  expect(wait(3, 0.5)).toEqual({ retry: true, failure: 'HTTP 503', delayMs: 1_500 });
});

test('Retry-After is honoured as sent (seconds or HTTP-date); a 503\'s within the wait budget, a 429\'s within the request\'s timeout', () => {
  expect(decideRetry(answered(429, [['Retry-After', '3']]), fresh, DEFAULT_RETRY_POLICY)).toEqual({ retry: true, failure: 'HTTP 429', delayMs: 3_000 });
  const date = new Date(NOW + 2_000).toUTCString();
  expect(decideRetry(answered(503, [['retry-after', date]]), fresh, DEFAULT_RETRY_POLICY)).toEqual({ retry: true, failure: 'HTTP 503', delayMs: 2_000 });
  expect(decideRetry(answered(503, [['Retry-After', '6']]), fresh, DEFAULT_RETRY_POLICY)).toEqual({
    retry: false,
    note: 'not retried: the server asked to wait 6 s (Retry-After), more than the 5 s retries may wait in all',
  });
  expect(decideRetry(answered(429, [['Retry-After', '6']]), fresh, DEFAULT_RETRY_POLICY)).toEqual({ retry: true, failure: 'HTTP 429', delayMs: 6_000 });
  expect(decideRetry(answered(429, [['Retry-After', '3']]), { ...fresh, retriesDone: 2, waitedMs: 3_000 }, DEFAULT_RETRY_POLICY).retry).toBe(false);
});

test('a 429 is retried once at most, only after a Retry-After, and never when retries are off', () => {
  expect(decideRetry(answered(429), fresh, DEFAULT_RETRY_POLICY)).toEqual({
    retry: false,
    note: 'not retried: the 429 had no Retry-After saying when to come back, and a sign-in sent again sooner counts against the account\'s limit',
  });
  expect(decideRetry(answered(429, [['Retry-After', 'soon']]), fresh, DEFAULT_RETRY_POLICY).retry).toBe(false);
  expect(decideRetry(answered(429, [['Retry-After', '1']]), { ...fresh, retriesDone: 1, rateLimitedRetries: 1 }, DEFAULT_RETRY_POLICY)).toEqual({
    retry: false,
    note: 'retried once, as late as Retry-After asked, and refused again: a sign-in is not sent a third time after a 429',
  });
  // A 429 after a refused connection still gets its one retry.
  expect(decideRetry(answered(429, [['Retry-After', '1']]), { ...fresh, retriesDone: 1 }, DEFAULT_RETRY_POLICY).retry).toBe(true);
  expect(decideRetry(answered(429, [['Retry-After', '1']]), fresh, { ...DEFAULT_RETRY_POLICY, retries: 0 })).toEqual({ retry: false });
  expect(decideRetry(answered(429, [['Retry-After', '26']]), fresh, DEFAULT_RETRY_POLICY).retry).toBe(false);
  expect(decideRetry(answered(429, [['Retry-After', '25']]), fresh, DEFAULT_RETRY_POLICY).retry).toBe(true);
  expect(decideRetry(answered(429, [['Retry-After', '60']]), fresh, DEFAULT_RETRY_POLICY)).toEqual({
    retry: false,
    note: 'not retried: the server asked to wait 60 s (Retry-After), more than the 25 s the request\'s timeout leaves for it (5 s are kept for the retry itself)',
  });
});

test('no retry once the retries are spent, nor when the wait would run past the request\'s timeout', () => {
  expect(decideRetry(answered(503), { ...fresh, retriesDone: 2 }, DEFAULT_RETRY_POLICY)).toEqual({ retry: false });
  expect(decideRetry(answered(503), fresh, { ...DEFAULT_RETRY_POLICY, retries: 0 })).toEqual({ retry: false });
  expect(decideRetry(answered(503, [['Retry-After', '2']]), { ...fresh, deadline: NOW + 1_500 }, DEFAULT_RETRY_POLICY)).toEqual({
    retry: false,
    note: 'not retried: waiting 2 s would leave no time of the request\'s timeout',
  });
});

test('parseRetryAfter reads delay-seconds and HTTP-dates, and ignores anything else', () => {
  expect(parseRetryAfter('0', NOW)).toBe(0);
  expect(parseRetryAfter(' 7 ', NOW)).toBe(7_000);
  expect(parseRetryAfter('Tue, 01 Jan 2030 00:00:04 GMT', NOW)).toBe(4_000);
  expect(parseRetryAfter('Monday, 31-Dec-29 23:59:00 GMT', NOW)).toBe(0);
  for (const junk of [undefined, '', '-1', '1.5', 'soon', '12abc']) expect(parseRetryAfter(junk, NOW), String(junk)).toBeUndefined();
});

test('MULTIAUTH_RETRIES sets the number of retries (0 = off, at most 5); anything else keeps the default', () => {
  expect(retryPolicyFromEnv({})).toEqual({ retries: 2, baseDelayMs: 250, maxTotalWaitMs: 5_000 });
  expect(retryPolicyFromEnv({ MULTIAUTH_RETRIES: '0' }).retries).toBe(0);
  expect(retryPolicyFromEnv({ MULTIAUTH_RETRIES: '4' }).retries).toBe(4);
  expect(retryPolicyFromEnv({ MULTIAUTH_RETRIES: '99' }).retries).toBe(5);
  for (const junk of ['', 'no', '-1', '1.5']) expect(retryPolicyFromEnv({ MULTIAUTH_RETRIES: junk }).retries).toBe(2);
});

test('describeRetries: the suffix counts attempts, the details list each failure and wait', () => {
  expect(describeRetries(undefined)).toEqual({ suffix: '', details: [] });
  expect(describeRetries({ failures: [{ failure: 'HTTP 503', waitedMs: 180 }, { failure: 'ECONNRESET', waitedMs: 1_000 }] })).toEqual({
    suffix: ' after 3 attempts',
    details: ['earlier attempts: HTTP 503 (then waited 0.2 s), ECONNRESET (then waited 1 s)'],
  });
  expect(describeRetries({ failures: [], note: 'not retried: x' })).toEqual({ suffix: '', details: ['not retried: x'] });
});

test('withRetries: stops at the first answer that is not transient, and an abort ends the wait', async () => {
  const statuses = [503, 503, 200];
  let attempts = 0;
  const observation = await withRetries(
    async () => {
      const outcome = answered(statuses[attempts++] ?? 500);
      return (outcome as { observation: Observation }).observation;
    },
    { policy: { ...DEFAULT_RETRY_POLICY, baseDelayMs: 10 }, deadline: Date.now() + 5_000 },
  );
  expect(attempts).toBe(3);
  expect(observation.responses[0]?.status).toBe(200);
  expect(observation.retry?.failures.map((f) => f.failure)).toEqual(['HTTP 503', 'HTTP 503']);

  const controller = new AbortController();
  const reason = new Error('stopped by the caller');
  setTimeout(() => controller.abort(reason), 50);
  const started = Date.now();
  const aborted = await withRetries(async () => (answered(429, [['Retry-After', '4']]) as { observation: Observation }).observation, {
    policy: DEFAULT_RETRY_POLICY,
    deadline: Date.now() + 30_000,
    signal: controller.signal,
  }).catch((error: unknown) => error);
  expect(aborted).toBe(reason);
  expect(Date.now() - started).toBeLessThan(1_000);
});
