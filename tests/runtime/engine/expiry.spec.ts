import { test, expect } from '@playwright/test';
import { computeExpiry, needsRefresh } from '../../../src/runtime/engine/expiry.js';
import { decodeJwtPayload } from '../../../src/runtime/engine/jwt.js';

function jwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.c2lnbmF0dXJl`;
}

const T0 = 1_700_000_000_000;

test.describe('decodeJwtPayload', () => {
  test('reads the claims of a compact JWT, with or without Bearer', () => {
    expect(decodeJwtPayload(jwt({ exp: 123, sub: 'a' }))).toEqual({ exp: 123, sub: 'a' });
    expect(decodeJwtPayload(`Bearer ${jwt({ exp: 5 })}`)).toEqual({ exp: 5 });
    expect(decodeJwtPayload(`${jwt({ exp: 5 }).split('.').slice(0, 2).join('.')}.`)).toEqual({ exp: 5 });
  });

  test('anything else is undefined', () => {
    for (const value of ['', 'opaque-token', 'a.b', 'a.b.c.d.e', `x.${Buffer.from('[1]').toString('base64url')}.y`, 'x.!!!.y', `x.${Buffer.from('not json').toString('base64url')}.y`]) {
      expect(decodeJwtPayload(value)).toBeUndefined();
    }
  });
});

test.describe('computeExpiry', () => {
  test('sessionSeconds wins over everything', () => {
    expect(computeExpiry({ createdAt: T0, sessionSeconds: 60, variables: { expires_in: '10' }, extractedNames: ['expires_in'] })).toBe(T0 + 60_000);
  });

  test('the config\'s lifetime applies only when the sign-in says nothing of its expiry', () => {
    expect(computeExpiry({ createdAt: T0, lifetimeSeconds: 600, variables: { sid: 'opaque' }, extractedNames: ['sid'] })).toBe(T0 + 600_000);
    expect(computeExpiry({ createdAt: T0, lifetimeSeconds: 600, variables: { expires_in: '60' }, extractedNames: ['expires_in'] })).toBe(T0 + 60_000);
    expect(computeExpiry({ createdAt: T0, lifetimeSeconds: 600, sessionSeconds: 30, variables: {}, extractedNames: [] })).toBe(T0 + 30_000);
    expect(computeExpiry({ createdAt: T0, variables: { sid: 'opaque' }, extractedNames: ['sid'] })).toBeNull();
  });

  test('expires_in and ExpiresIn are seconds from creation', () => {
    expect(computeExpiry({ createdAt: T0, variables: { expires_in: '3600' }, extractedNames: ['expires_in'] })).toBe(T0 + 3_600_000);
    expect(computeExpiry({ createdAt: T0, variables: { ExpiresIn: ' 300 ' }, extractedNames: ['ExpiresIn'] })).toBe(T0 + 300_000);
  });

  test('the exp of an extracted JWT is absolute seconds, a Bearer prefix stripped', () => {
    const exp = T0 / 1000 + 900;
    expect(computeExpiry({ createdAt: T0, variables: { token: `Bearer ${jwt({ exp })}` }, extractedNames: ['token'] })).toBe(exp * 1000);
  });

  test('the earliest wins', () => {
    const variables = { expires_in: '3600', access: jwt({ exp: T0 / 1000 + 600 }), id: jwt({ exp: T0 / 1000 + 1200 }) };
    expect(computeExpiry({ createdAt: T0, variables, extractedNames: ['expires_in', 'access', 'id'] })).toBe(T0 + 600_000);
    expect(computeExpiry({ createdAt: T0, variables: { ...variables, expires_in: '60' }, extractedNames: ['expires_in', 'access', 'id'] })).toBe(T0 + 60_000);
  });

  test('only extracted variables count; nothing usable gives null', () => {
    const old = jwt({ exp: T0 / 1000 - 100 });
    expect(computeExpiry({ createdAt: T0, variables: { expires_in: '60', old }, extractedNames: [] })).toBeNull();
    expect(computeExpiry({ createdAt: T0, variables: { expires_in: 'soon', token: 'opaque', noexp: jwt({ sub: 'x' }) }, extractedNames: ['expires_in', 'token', 'noexp'] })).toBeNull();
    expect(computeExpiry({ createdAt: T0, variables: {}, extractedNames: ['missing'] })).toBeNull();
  });
});

test.describe('needsRefresh', () => {
  test('never for a session without expiry', () => {
    expect(needsRefresh({ createdAt: 0, expiresAt: null }, Number.MAX_SAFE_INTEGER)).toBe(false);
  });

  test('a long session refreshes when less than 30 s remain', () => {
    const s = { createdAt: 0, expiresAt: 3_600_000 };
    expect(needsRefresh(s, 3_570_000)).toBe(false);
    expect(needsRefresh(s, 3_570_001)).toBe(true);
  });

  test('a 2 s session is used for 1.5 s (a quarter of its lifetime)', () => {
    const s = { createdAt: 10_000, expiresAt: 12_000 };
    expect(needsRefresh(s, 10_000)).toBe(false);
    expect(needsRefresh(s, 11_500)).toBe(false);
    expect(needsRefresh(s, 11_501)).toBe(true);
  });

  test('the 30 s margin applies from a 2 min lifetime up', () => {
    expect(needsRefresh({ createdAt: 0, expiresAt: 120_000 }, 90_000)).toBe(false);
    expect(needsRefresh({ createdAt: 0, expiresAt: 120_000 }, 90_001)).toBe(true);
    expect(needsRefresh({ createdAt: 0, expiresAt: 100_000 }, 75_001)).toBe(true);
    expect(needsRefresh({ createdAt: 0, expiresAt: 100_000 }, 75_000)).toBe(false);
  });

  test('an expired or zero-length session always needs it', () => {
    expect(needsRefresh({ createdAt: 0, expiresAt: 0 }, 0)).toBe(true);
    expect(needsRefresh({ createdAt: 5000, expiresAt: 1000 }, 0)).toBe(true);
    expect(needsRefresh({ createdAt: 0, expiresAt: 3_600_000 }, 4_000_000)).toBe(true);
  });
});
