import type { Session } from '../runtime/index.js';
import { isDomainless } from '../runtime/index.js';
import { jarCookies, type StorageCookie } from './storage-state.js';

/** A Playwright cookie jar: a browser context or an API request context. */
export interface CookieJarOwner {
  addCookies(cookies: StorageCookie[]): Promise<void>;
}

/**
 * Binds a session's cookies without a domain (cookie injections) to each host the first time a
 * request goes there, in the sender's own jar. Playwright's senders keep cookies in a jar (which
 * also keeps the cookies the tested app sets), and a jar needs a domain; Chromium also drops a
 * `Cookie` header set by routing, so the jar is the only way in. Hosts in `bound` already have
 * them (through `storageState`). A new session (refreshed, new values) is bound again.
 *
 * @example
 * const bind = bindDomainlessCookies(context, []);
 * await bind(session, 'http://127.0.0.1:4010/whoami'); // adds the injected cookies for 127.0.0.1
 */
export function bindDomainlessCookies(jar: CookieJarOwner, bound: readonly string[]): (session: Session, url: string) => Promise<void> {
  let boundFor: Session | undefined;
  const hosts = new Set<string>();
  return async (session, url) => {
    if (session !== boundFor) {
      boundFor = session;
      hosts.clear();
      for (const host of bound) hosts.add(host);
    }
    const host = new URL(url).hostname;
    if (hosts.has(host)) return;
    hosts.add(host);
    const cookies = jarCookies(session.cookies.filter(isDomainless), [host]);
    if (cookies.length) await jar.addCookies(cookies);
  };
}
