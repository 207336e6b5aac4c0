import { test, expect } from '@playwright/test';
import type { BrowserContext } from 'playwright-core';
import { authenticatorOf, rpIdFits, seedPasskey } from '../../../../src/runtime/protocols/browser/passkey.js';
import { MultiAuthError } from '../../../../src/core/errors.js';
import { testPasskey } from '../../../support/passkey-keys.js';

// Issue 28, item 6: the errors of seeding a passkey, before any page opens.

test('a Playwright without context.credentials: one PASSKEY_UNSUPPORTED naming the version needed and the user', async ({ browser }) => {
  const context = await browser.newContext();
  try {
    // What a Playwright before 1.61 hands over: a context without the authenticator.
    const older = new Proxy(context, { get: (target, key) => (key === 'credentials' ? undefined : Reflect.get(target, key)) }) as BrowserContext;
    const error = (() => {
      try {
        authenticatorOf(older, { user: 'alice', path: ['users', 0, 'passkey'] });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(MultiAuthError);
    expect((error as MultiAuthError).code).toBe('PASSKEY_UNSUPPORTED');
    expect((error as MultiAuthError).message).toBe('user "alice" has a passkey, and this Playwright has no virtual authenticator (context.credentials)');
    expect((error as MultiAuthError).hint).toBe('Use Playwright 1.61 or later: npm i -D @playwright/test@latest.');
    // The real one has it.
    expect(authenticatorOf(context as unknown as BrowserContext, { user: 'alice' })).toBe(context.credentials);
  } finally {
    await context.close();
  }
});

test('a public key that is not SPKI: AUTH_PASSKEY naming the user and the key\'s place, nothing seeded', async ({ browser }) => {
  const context = await browser.newContext();
  try {
    const key = testPasskey();
    const error = await seedPasskey(context as unknown as BrowserContext, { rpId: 'app.test', id: key.id, userHandle: key.userHandle, privateKey: key.privateKey, publicKey: 'AAAA', signCount: 0 }, { user: 'bob', path: ['users', 1, 'passkey'] })
      .then(() => undefined, (e: unknown) => e as MultiAuthError);
    expect(error?.code).toBe('AUTH_PASSKEY');
    expect(error?.message).toBe('the passkey\'s public_key of user "bob" does not parse as an SPKI DER key');
    expect(error?.path).toEqual(['users', 1, 'passkey', 'public_key']);
    expect(await context.credentials.get()).toEqual([]);
  } finally {
    await context.close();
  }
});

test('rp ids: the host or a registrable suffix of it', () => {
  expect(rpIdFits('example.test', 'example.test')).toBe(true);
  expect(rpIdFits('example.test', 'login.EXAMPLE.test')).toBe(true);
  expect(rpIdFits('127.0.0.1', '127.0.0.1')).toBe(true);
  expect(rpIdFits('ample.test', 'example.test')).toBe(false);
  expect(rpIdFits('login.example.test', 'example.test')).toBe(false);
});
