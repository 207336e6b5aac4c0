import { test, expect } from '@playwright/test';
import { MASK, Redactor } from '../../src/core/redactor.js';

test('masks every added secret, its URL-encoded, form, Base64 and JSON-escaped forms; short values are not secrets', () => {
  const redactor = new Redactor().add('p@ss word"1', 'ab', undefined, null);
  expect(redactor.redact('raw p@ss word"1')).toBe(`raw ${MASK}`);
  expect(redactor.redact(`url ${encodeURIComponent('p@ss word"1')}`)).toBe(`url ${MASK}`);
  expect(redactor.redact('form p%40ss+word%221')).toBe(`form ${MASK}`);
  expect(redactor.redact(`b64 ${Buffer.from('p@ss word"1').toString('base64').replace(/=+$/, '')}`)).toBe(`b64 ${MASK}`);
  expect(redactor.redact('json "p@ss word\\"1"')).toBe(`json "${MASK}"`);
  expect(redactor.redact('ab stays')).toBe('ab stays');
});

test('a secret that contains another is masked whole', () => {
  const redactor = new Redactor().add('token', 'Bearer token-long');
  expect(redactor.redact('Authorization: Bearer token-long')).toBe(`Authorization: ${MASK}`);
});

test('addLazily collects when something is first printed, and sees what the object holds by then', () => {
  const session = { headers: { Authorization: ['Bearer first-token'] } as Record<string, string[]> };
  let collected = 0;
  const redactor = new Redactor().addLazily(() => {
    collected++;
    return Object.values(session.headers).flat();
  });
  session.headers['X-Api-Key'] = ['later-key'];
  expect(collected).toBe(0);
  expect(redactor.redact('Bearer first-token and later-key')).toBe(`${MASK} and ${MASK}`);
  expect(collected).toBe(1);
  expect(redactor.redact('later-key')).toBe(MASK);
  expect(collected).toBe(1);
});

test('lazy collections are made once many of them wait, so a process that never prints keeps few', () => {
  const redactor = new Redactor();
  const collected: number[] = [];
  for (let i = 0; i < 1_001; i++) redactor.addLazily(() => (collected.push(i), [`secret-${i}`]));
  expect(collected).toHaveLength(1_001);
  redactor.addLazily(() => (collected.push(-1), ['one-more']));
  expect(collected).toHaveLength(1_001);
  expect(redactor.redact('secret-0 one-more')).toBe(`${MASK} ${MASK}`);
  expect(redactor.size).toBeGreaterThan(1_001);
});

test('addAll takes over another redactor\'s secrets, lazy ones included', () => {
  const other = new Redactor().add('static-secret').addLazily(() => ['lazy-secret']);
  const redactor = new Redactor().addAll(other);
  expect(redactor.redact('static-secret lazy-secret')).toBe(`${MASK} ${MASK}`);
});

test('keep: an identifier is never masked, even when a secret equals it; a secret that contains one is masked whole', () => {
  const redactor = new Redactor().add('alice', 'alice-token-1', 'password').keep('alice', 'password');
  expect(redactor.redact('user "alice", variable {{password}}')).toBe('user "alice", variable {{password}}');
  expect(redactor.redact('token alice-token-1')).toBe(`token ${MASK}`);
  // Kept before or after the secret arrives, and through addAll.
  const later = new Redactor().keep('bob').add('bob');
  expect(later.redact('bob')).toBe('bob');
  expect(new Redactor().add('bob').addAll(later).redact('bob')).toBe('bob');
});

// Issue 23, item 1: V8 refused the one regular expression built from every secret once a secret
// passed about 32,000 characters, and the error quoted the pattern.
test('secrets of any length are masked, with their encoded forms, and masking never throws', () => {
  const token = 'T'.repeat(99_990) + 'end-of-it';
  const redactor = new Redactor().add('hunter2-pw', token);
  const base64 = Buffer.from(token).toString('base64').replace(/=+$/, '');
  expect(redactor.redact(`a ${token} b ${base64} c hunter2-pw`)).toBe(`a ${MASK} b ${MASK} c ${MASK}`);
  expect(redactor.redact(`json "${JSON.stringify(token).slice(1, -1)}"`)).toBe(`json "${MASK}"`);
});

test('overlapping secrets are masked together: no piece of either shows', () => {
  const redactor = new Redactor().add('xab', 'abcdef', 'Q'.repeat(40) + 'shared-end', 'R'.repeat(50) + 'shared-end');
  expect(redactor.redact('1xabcdef2')).toBe(`1${MASK}2`);
  // Long secrets with the same end: the one that is there is masked whole.
  expect(redactor.redact(`<${'R'.repeat(50)}shared-end>`)).toBe(`<${MASK}>`);
  expect(redactor.redact(`<${'Q'.repeat(40)}shared-end>`)).toBe(`<${MASK}>`);
  expect(redactor.redact('<shared-end>')).toBe('<shared-end>');
});

test('a text made to cost too much is withheld whole, saying how long it was; a malformed secret breaks nothing', () => {
  // Every position of the text holds the secret, overlapping the last: confirming each would cost
  // 2,000,000 times 100,000 comparisons.
  const redactor = new Redactor().add('a'.repeat(100_000), '\uD800lone-surrogate');
  const out = redactor.redact('a'.repeat(2_000_000));
  expect(out).toBe('[2000000 characters withheld: playwright-multiauth could not mask the secrets in them]');
  expect(redactor.redact('x \uD800lone-surrogate y')).toBe(`x ${MASK} y`);
});

test('many secrets are masked in one pass per few thousand of them', () => {
  const redactor = new Redactor();
  for (let i = 0; i < 9_000; i++) redactor.add(`secret-number-${i}-of-many`);
  expect(redactor.redact('see secret-number-8999-of-many and secret-number-0-of-many')).toBe(`see ${MASK} and ${MASK}`);
});

test('JSON output is masked string by string: a short secret inside a number leaves the number, and the text stays JSON', () => {
  // An extracted `expires_in` of 3600 is a secret like every extracted value.
  const redactor = new Redactor().add('3600', 'tok"en\\x');
  const value = { expiresAt: 1795683600123, status: 401, note: 'expires_in 3600', token: 'tok"en\\x', list: [3600, 'a 3600 b'] };
  const masked = redactor.redactJson(value);
  expect(masked).toEqual({ expiresAt: 1795683600123, status: 401, note: `expires_in ${MASK}`, token: MASK, list: [3600, `a ${MASK} b`] });
  // What masking the serialized text gave: digits masked inside the number, not JSON any more.
  expect(() => JSON.parse(redactor.redact(JSON.stringify({ expiresAt: 1795683600123 })))).toThrow();
});

// Issue 29: `multiauth check` prints a line per user as each signs in, and every new secret made
// the whole matcher compile again: 1,000 users took 52 s of masking alone.
// Its speed is the bench's (`scale-check-parallel`); here, that every secret learnt so is masked.
test('secrets learnt between prints are all masked, one print at a time', () => {
  const redactor = new Redactor().add('xab', 'Q'.repeat(40) + 'shared-end');
  expect(redactor.redact('1xab2')).toBe(`1${MASK}2`);
  // Learnt after the first print: a longer secret over an older one, a long one sharing an older one's end.
  redactor.add('abcdef', 'R'.repeat(50) + 'shared-end');
  expect(redactor.redact('1xabcdef2')).toBe(`1${MASK}2`);
  expect(redactor.redact(`<${'R'.repeat(50)}shared-end> <${'Q'.repeat(40)}shared-end>`)).toBe(`<${MASK}> <${MASK}>`);
  // A secret taken out again (it is an identifier) is shown; the others stay masked.
  redactor.keep('abcdef');
  expect(redactor.redact('abcdef xab')).toBe(`abcdef ${MASK}`);

  const tokens: string[] = [];
  for (let i = 0; i < 1_000; i++) {
    const token = `tok-${i}-${'k'.repeat(i % 50)}-end`;
    tokens.push(token);
    redactor.add(token);
    expect(redactor.redact(`user-${i} ${token}`)).toBe(`user-${i} ${MASK}`);
  }
  expect(redactor.redact(tokens.join(' '))).toBe(tokens.map(() => MASK).join(' '));
});
