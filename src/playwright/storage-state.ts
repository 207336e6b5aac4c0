import type { ObservedCookie } from '../runtime/http/observation.js';
import type { Session } from '../runtime/session/session.js';

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
 * A session's cookies and localStorage in Playwright's `storageState` shape. Cookies that came
 * without a domain (cookie injections) are set for each of `hosts`; with no hosts they are left out
 * here and sent as a header instead (see {@link domainlessCookies}).
 *
 * @example
 * toStorageState(session, ['127.0.0.1']);
 * @see https://playwright.dev/docs/api/class-browsercontext#browser-context-storage-state
 */
export function toStorageState(session: Session, hosts: string[]): StorageState {
  const cookies: StorageCookie[] = [];
  for (const cookie of session.cookies) {
    const domains = cookie.domain ? [cookie.domain] : hosts;
    for (const domain of domains) cookies.push(toStorageCookie(cookie, domain));
  }
  return { cookies, origins: session.origins };
}

/** Cookies of the session that have no domain: they follow the scope rather than a host. */
export function domainlessCookies(session: Session): ObservedCookie[] {
  return session.cookies.filter((c) => !c.domain);
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
