import type { BrowserContext, Page } from 'playwright-core';
import type { startPasskey } from './passkey-step.js';

/**
 * The browser of one sign-in (issue 37, item 4): the context its first browser step opened and the
 * page its last browser step ended on. Consecutive operations of a procedure (`browser`, `email`,
 * `browser`) continue there, so a code from a mail is typed into the page that asked for it, and a
 * magic link bound to the starting browser's cookie opens in that browser. The procedure closes it
 * when it ends, whichever way.
 */
export interface BrowserSession {
  open?: {
    context: BrowserContext;
    /** Where the next browser step continues; absent or closed: the context's first page. */
    page?: Page;
    /** The user's passkey, seeded once into the context; told after each step what the context holds. */
    passkey: Awaited<ReturnType<typeof startPasskey>>;
  };
}

/**
 * Closes the sign-in's browser context, if a browser step opened one; never throws (a browser that
 * went away has nothing left to close).
 *
 * @example
 * try { ... } finally { await closeBrowserSession(session); }
 */
export async function closeBrowserSession(session: BrowserSession): Promise<void> {
  const open = session.open;
  session.open = undefined;
  await open?.context.close().catch(() => undefined);
}
