import { test, expect } from '@playwright/test';
import { Secret } from 'otpauth';
import { parsedTemplate } from '../../../src/core/template-expr.js';
import { evaluateTemplate, signInValues, totpCode, totpWaitMs } from '../../../src/runtime/template/functions.js';
import { expandTemplate } from '../../../src/runtime/template/template.js';
import { MultiAuthError } from '../../../src/core/errors.js';
import { createHash } from 'node:crypto';
import { thrown } from '../../support/errors.js';

const scopeOf = (values: Record<string, string>) => ({
  lookup: (name: string) => (Object.hasOwn(values, name) ? values[name] : undefined),
  unknown: (name: string) => new Error(`unknown ${name}`),
});
const evaluate = (source: string, values: Record<string, string> = {}) => evaluateTemplate(parsedTemplate(source), scopeOf(values));

test('results are bounded: base64() nested 16 deep over a 4 MiB value fails at once, naming the function', () => {
  const value = 'v'.repeat(4 * 1024 * 1024);
  const source = `${'base64('.repeat(16)}v${')'.repeat(16)}`;
  const before = process.memoryUsage().rss;
  const error = thrown(() => expandTemplate({ body: `{{ ${source} }}` }, { v: value }, { user: 'alice', procedure: 'login', step: 2, path: ['procedures', 0, 'operations', 2, 'parameters'] }));
  expect(error.code).toBe('TEMPLATE_FUNCTION_FAILED');
  expect(error.message).toBe('base64(): its result would be 9.5 MiB of text, more than the 8.0 MiB a template value may be');
  expect(error.path).toEqual(['procedures', 0, 'operations', 2, 'parameters', 'body']);
  expect(error.context).toMatchObject({ user: 'alice', procedure: 'login', step: 2 });
  // 1.36 GB before the bound.
  expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  for (const [expression, name] of [['urlencode(v + v + v)', 'a + b'], ['basic(w, w)', 'basic()'], ['base64url(w + "x")', 'base64url()'], ['urlencode(w)', 'urlencode()']] as const) {
    const oversized = thrown(() => evaluate(expression, { v: 'v'.repeat(3 * 1024 * 1024), w: 'é'.repeat(4 * 1024 * 1024) }));
    expect(oversized.code, expression).toBe('TEMPLATE_FUNCTION_FAILED');
    expect(oversized.message, expression).toMatch(new RegExp(`^${name.replace(/[()+]/g, '\\$&')}: its result would be`));
  }
  expect(evaluate('base64(v)', { v: 'v'.repeat(6 * 1024 * 1024) })).toHaveLength(8 * 1024 * 1024);
});

test('the functions', () => {
  expect(evaluate('basic(u, p)', { u: 'alice', p: 'pä:ss' })).toBe(`Basic ${Buffer.from('alice:pä:ss').toString('base64')}`);
  expect(evaluate('base64("a?b>")')).toBe('YT9iPg==');
  expect(evaluate('base64url("a?b>")')).toBe('YT9iPg');
  expect(evaluate('urlencode(x)', { x: 'a b&c/é' })).toBe('a%20b%26c%2F%C3%A9');
  expect(evaluate('"id-" + n + "-" + 42', { n: '7' })).toBe('id-7-42');
  expect(evaluate('uuid()')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(Math.abs(Number(evaluate('now()')) - Date.now() / 1000)).toBeLessThan(2);
});

// RFC 6238 appendix B: the seeds are ASCII, 8 digits, 30-second steps.
const RFC_SEEDS = {
  SHA1: '12345678901234567890',
  SHA256: '12345678901234567890123456789012',
  SHA512: '1234567890123456789012345678901234567890123456789012345678901234',
};
const RFC_VECTORS: Array<[number, string, string]> = [
  [59, 'SHA1', '94287082'], [59, 'SHA256', '46119246'], [59, 'SHA512', '90693936'],
  [1111111109, 'SHA1', '07081804'], [1111111109, 'SHA256', '68084774'], [1111111109, 'SHA512', '25091201'],
  [1111111111, 'SHA1', '14050471'], [1234567890, 'SHA256', '91819424'], [2000000000, 'SHA512', '38618901'],
  [20000000000, 'SHA1', '65353130'], [20000000000, 'SHA256', '77737706'], [20000000000, 'SHA512', '47863826'],
];

test('totp() gives RFC 6238 test vectors', () => {
  for (const [seconds, algorithm, code] of RFC_VECTORS) {
    const secret = new Secret({ buffer: new TextEncoder().encode(RFC_SEEDS[algorithm as keyof typeof RFC_SEEDS]).buffer as ArrayBuffer }).base32;
    expect(totpCode([secret, '8', '30', algorithm], seconds * 1000), `${algorithm} at ${seconds}`).toBe(code);
  }
  // As authenticator apps show a secret: grouped, lower case.
  expect(totpCode(['gezd gnbv gy3t qojq gezd gnbv gy3t qojq', '8'], 59_000)).toBe('94287082');
});

test('totp() refuses a secret that is not base32 and bad settings, naming no value', () => {
  for (const [args, why] of [
    [['not base32!'], /the secret is not base32/],
    [['GEZDGNBV', '5'], /digits must be/],
    [['GEZDGNBV', '6', '1'], /period must be/],
    [['GEZDGNBV', '6', '30', 'MD5'], /algorithm must be/],
  ] as const) {
    let error: unknown;
    try {
      totpCode(args);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(MultiAuthError);
    expect((error as MultiAuthError).code).toBe('TEMPLATE_FUNCTION_FAILED');
    expect((error as Error).message).toMatch(why);
  }
  // Through expansion, the error names where it happened.
  let error: unknown;
  try {
    expandTemplate({ body: { otp: '{{ totp(seed) }}' } }, { seed: 'x!' }, { user: 'tina', procedure: 'login', step: 0, path: ['procedures', 0] });
  } catch (caught) {
    error = caught;
  }
  expect((error as MultiAuthError).path).toEqual(['procedures', 0, 'body', 'otp']);
  expect((error as MultiAuthError).message).not.toContain('x!');
});

test('a code in the last 3 seconds of its period is waited out', () => {
  const request = { body: { otp: '{{ totp(seed) }}', other: '{{ totp(seed, 6, 60) }}' } };
  const scope = scopeOf({ seed: 'GEZDGNBVGY3TQOJQ' });
  expect(totpWaitMs(request, scope, 1_000_000 * 30_000 + 10_000)).toBe(0);
  // 28.5 s into a 30 s period: wait 1.5 s (and a little); the 60 s one is mid-period.
  expect(totpWaitMs(request, scope, 1_000_000 * 60_000 + 28_500)).toBe(1_550);
  expect(totpWaitMs({ url: 'https://x.test/{{a}}' }, scope, 28_500)).toBe(0);
});

test('per-sign-in values: a PKCE S256 pair, state and nonce, fresh each time', () => {
  const one = signInValues();
  const two = signInValues();
  expect(one.pkce_verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(one.pkce_challenge).toBe(createHash('sha256').update(one.pkce_verifier).digest('base64url'));
  expect(one.state).not.toBe(two.state);
  expect(one.nonce).not.toBe(two.nonce);
  expect(one.pkce_verifier).not.toBe(two.pkce_verifier);
});
