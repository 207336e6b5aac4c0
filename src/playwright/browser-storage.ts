import type { BrowserContext } from 'playwright-core';
import type { Session } from '../runtime/index.js';
import type { ResolvedScope } from './scope.js';
import { compileOriginGlob, reachesOrigin, type OriginGlob } from '../core/origin-glob.js';

/** Set in a window's sessionStorage once its items are restored: a page that removes an item (signs out) keeps it removed. */
const RESTORED_MARK = '__multiauth_session_restored';

type Items = Array<{ name: string; value: string }>;

/** What one origin's pages get: items written into a window before its scripts run. */
interface OriginItems {
  /** An origin (`https://app.test`): the session's own storage of that origin. */
  origin?: string;
  /** Or every origin a scope glob reaches: the user's static storage credentials. */
  glob?: OriginGlob;
  localStorage: Items;
  sessionStorage: Items;
}

/**
 * Restores the storage Playwright's `storageState` cannot in every page of `context`: the
 * session's sessionStorage per origin (Playwright leaves it out, microsoft/playwright#31108, and
 * MSAL-style apps keep their tokens there), and the user's static `local_storage` /
 * `session_storage` credentials in the pages of the origins the scope reaches (those with a URL
 * inside it: `http://app.test/api/**` reaches `http://app.test` only). An init script writes them
 * before the page's own scripts run: sessionStorage once per window, a localStorage item only when
 * the page has none of that name, so a page that signs out stays signed out.
 *
 * @example
 * await restoreBrowserStorage(context, session, resolveScope(scope, baseURL));
 * await page.goto('/spa/app'); // the app finds its token in sessionStorage
 */
export async function restoreBrowserStorage(context: BrowserContext, session: Session, scope: ResolvedScope): Promise<void> {
  const plan: OriginItems[] = [];
  for (const origin of session.origins) {
    if (origin.sessionStorage?.length) plan.push({ origin: origin.origin, localStorage: [], sessionStorage: origin.sessionStorage });
  }
  const fixed = session.scopeStorage;
  if (fixed && (fixed.localStorage.length || fixed.sessionStorage.length)) {
    for (const pattern of new Set(scope.origins)) {
      const glob = compileOriginGlob(pattern);
      if (glob) plan.push({ glob, localStorage: fixed.localStorage, sessionStorage: fixed.sessionStorage });
    }
  }
  if (!plan.length) return;
  // A script of our own text: the page runs reachesOrigin's source as the glob matcher.
  await context.addInitScript(`(${writeStorage.toString()})(${JSON.stringify({ origins: plan, mark: RESTORED_MARK })}, ${reachesOrigin.toString()});`);
}

/** Runs in the page, before its scripts: self-contained, its source is sent as it is. */
function writeStorage(
  { origins, mark }: { origins: OriginItems[]; mark: string },
  reaches: (glob: OriginGlob, origin: string) => boolean,
): void {
  const mine = origins.filter(({ origin, glob }) => origin === location.origin || (glob !== undefined && reaches(glob, location.origin)));
  if (!mine.length) return;
  try {
    for (const { localStorage: items } of mine) for (const { name, value } of items) if (localStorage.getItem(name) === null) localStorage.setItem(name, value);
    if (sessionStorage.getItem(mark) !== null) return;
    for (const { sessionStorage: items } of mine) for (const { name, value } of items) if (sessionStorage.getItem(name) === null) sessionStorage.setItem(name, value);
    sessionStorage.setItem(mark, '1');
  } catch {
    // Storage refused (an opaque origin, a sandboxed frame): the page runs as it would anyway.
  }
}
