import type { BrowserContext } from 'playwright-core';
import type { Session } from '../runtime/index.js';

/** Set in a window's sessionStorage once its items are restored: a page that removes an item (signs out) keeps it removed. */
const RESTORED_MARK = '__multiauth_session_restored';

/**
 * Restores the session's sessionStorage in every page of `context`: Playwright's `storageState`
 * carries cookies, localStorage and IndexedDB but not sessionStorage (microsoft/playwright#31108),
 * where MSAL-style apps keep their tokens. An init script writes each origin's items into a
 * window's sessionStorage before the page's own scripts run, once per window: an item the page
 * already has is left as it is.
 *
 * @example
 * await restoreSessionStorage(context, session);
 * await page.goto('/spa/app'); // the app finds its token in sessionStorage
 */
export async function restoreSessionStorage(context: BrowserContext, session: Session): Promise<void> {
  const byOrigin = new Map<string, Array<{ name: string; value: string }>>();
  for (const origin of session.origins) if (origin.sessionStorage?.length) byOrigin.set(origin.origin, origin.sessionStorage);
  if (!byOrigin.size) return;
  await context.addInitScript(
    ({ origins, mark }) => {
      const items = origins.find(([origin]) => origin === location.origin)?.[1];
      if (!items) return;
      try {
        if (sessionStorage.getItem(mark) !== null) return;
        for (const { name, value } of items) if (sessionStorage.getItem(name) === null) sessionStorage.setItem(name, value);
        sessionStorage.setItem(mark, '1');
      } catch {
        // Storage refused (an opaque origin, a sandboxed frame): the page runs as it would anyway.
      }
    },
    { origins: [...byOrigin], mark: RESTORED_MARK },
  );
}
