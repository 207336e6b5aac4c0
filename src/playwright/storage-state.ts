import type { ObservedCookie } from '../runtime/index.js';
import type { Session } from '../runtime/index.js';
import { isDomainless } from '../runtime/index.js';

/** A cookie in Playwright's `storageState` shape. */
export interface StorageCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite: 'Strict' | 'Lax' | 'None';
}

/** Playwright's `storageState` JSON: usable with `test.use({ storageState })` as well. */
export interface StorageState {
  cookies: StorageCookie[];
  origins: Session['origins'];
}

/**
 * A session's cookies, localStorage and IndexedDB in Playwright's `storageState` shape; cookies as
 * {@link jarCookies} binds them to `hosts`.
 *
 * @example
 * toStorageState(session, ['127.0.0.1']);
 * @see https://playwright.dev/docs/api/class-browsercontext#browser-context-storage-state
 */
export function toStorageState(session: Session, hosts: string[]): StorageState {
  // sessionStorage is no part of Playwright's storageState: `restoreSessionStorage` puts it back.
  const origins = session.origins.map(({ origin, localStorage, indexedDB }) => ({ origin, localStorage, ...(indexedDB ? { indexedDB } : {}) }));
  return { cookies: jarCookies(session.cookies, hosts), origins };
}

/**
 * Session cookies as a Playwright cookie jar holds them. A cookie with a domain is kept as it is;
 * one without (a cookie injection) can enter a jar only bound to a host, so it is set once for
 * each of `hosts`, and left out when there are none (`bindDomainlessCookies` then binds it to
 * each host as requests go there).
 *
 * @example
 * jarCookies([{ name: 'token', value: 't' }], ['127.0.0.1']); // [{ name: 'token', domain: '127.0.0.1', path: '/', ... }]
 */
export function jarCookies(cookies: readonly ObservedCookie[], hosts: readonly string[]): StorageCookie[] {
  return cookies.flatMap((cookie) => (isDomainless(cookie) ? hosts : [cookie.domain as string]).map((domain) => toStorageCookie(cookie, domain)));
}

function toStorageCookie(cookie: ObservedCookie, domain: string): StorageCookie {
  return {
    name: cookie.name,
    value: cookie.value,
    domain,
    path: cookie.path ?? '/',
    expires: cookie.expires ?? -1,
    httpOnly: cookie.httpOnly ?? false,
    secure: cookie.secure ?? false,
    sameSite: cookie.sameSite ?? 'Lax',
  };
}
