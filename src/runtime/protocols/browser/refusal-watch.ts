import { setTimeout as sleep } from 'node:timers/promises';
import type { BrowserContext, Page, Request } from 'playwright-core';
import { StepFailure } from './failure.js';
import { oauthErrorIn, readPageMessages, untilPageChanges } from './page-messages.js';
import type { BrowserRun } from './state.js';

/** The least time between two looks at the pages: a page that changes all the time (a spinner) is read no oftener. */
const WATCH_MS = 250;
/**
 * The longest a watcher goes without reading a page that says nothing: the page is read when it
 * changes, and a change that neither a DOM mutation nor a request tells of (a style sheet's rule
 * that shows an element) is seen this late, not never.
 */
const IDLE_MS = 2000;
/**
 * How long a command waits before a message counts as a refusal: a command that finds its element
 * at once on a page with a banner ("please sign in again") is not one.
 */
const GRACE_MS = 1000;
/** Messages quoted in one error, at most. */
const QUOTED = 3;
/** The requests of a page's own work: the answer to a submit comes as one of them. */
const PAGE_WORK = ['document', 'fetch', 'xhr'];

/** Requests of a page's own work (documents, fetch, XHR) under way in each context. */
const underWay = new WeakMap<BrowserContext, Set<Request>>();

/**
 * Starts counting the requests under way in `context` (the page's answer to a submit may still be
 * coming: a message shown meanwhile, "Signing in", is no answer). Idempotent.
 */
function trackRequests(context: BrowserContext): Set<Request> {
  let pending = underWay.get(context);
  if (pending) return pending;
  const requests = new Set<Request>();
  pending = requests;
  underWay.set(context, requests);
  const done = (request: Request): void => void requests.delete(request);
  context.on('request', (request) => {
    if (PAGE_WORK.includes(request.resourceType())) requests.add(request);
  });
  context.on('requestfinished', done);
  context.on('requestfailed', done);
  return pending;
}

/**
 * Remembers the messages the selected window shows before a command that may submit (a click,
 * keys, a script): only a message that appears (or changes, or becomes visible) after it can be
 * the server's answer, never a banner the page had before.
 *
 * @example
 * await noteMessagesBeforeSubmit(run); // then run the click
 */
export async function noteMessagesBeforeSubmit(run: BrowserRun): Promise<void> {
  trackRequests(run.context);
  if (run.page.isClosed()) return;
  const shown = await readPageMessages(run.page);
  const posts = postsOf(run);
  const before = run.messagesBeforeSubmit;
  // The sign-in form shown again with a message since the last submit posted: that message is
  // the answer, not a banner, and stays one for the next command (a click that waits for an
  // element the refused form never shows).
  const answered = before !== undefined && shown?.passwordField === true && posts > (postsAtNote.get(run) ?? 0) && shown.messages.some((message) => !before.includes(message));
  if (answered) return;
  run.messagesBeforeSubmit = shown?.messages ?? [];
  postsAtNote.set(run, posts);
}

/** The POSTs a run had sent when its messages were last noted. */
const postsAtNote = new WeakMap<BrowserRun, number>();

/** The POSTs a run has sent so far. */
function postsOf(run: BrowserRun): number {
  return run.observed.requests.filter((request) => request.method === 'POST').length;
}

/** The in-page wait for a change of each page's document under way (one at a time, shared by the commands). */
const changeOfPage = new WeakMap<Page, Promise<void>>();

/** The next change of `page`'s document (see {@link untilPageChanges}); resolves after {@link IDLE_MS} at most. */
function changeOf(page: Page): Promise<void> {
  let change = changeOfPage.get(page);
  if (!change) {
    change = untilPageChanges(page, IDLE_MS).finally(() => changeOfPage.delete(page));
    changeOfPage.set(page, change);
  }
  return change;
}

/**
 * What wakes a watcher: a page request (document, fetch, XHR, any POST) starting or ending, a
 * navigation in any window (a same-document one too: an OAuth error in a fragment), a new window,
 * and a change of the document it reads ({@link PageChanges.watch}). Between them the pages show
 * what they showed: reading them again would find the same.
 */
class PageChanges {
  private changed = false;
  private wake: (() => void) | undefined;
  private watched: Page | undefined;
  private readonly pages = new Set<Page>();
  private readonly onChange = (): void => this.signal();
  private readonly onRequest = (request: Request): void => {
    if (PAGE_WORK.includes(request.resourceType()) || request.method() === 'POST') this.signal();
  };
  private readonly onPage = (page: Page): void => {
    this.follow(page);
    this.signal();
  };

  constructor(private readonly context: BrowserContext) {
    context.on('request', this.onRequest);
    context.on('requestfinished', this.onRequest);
    context.on('requestfailed', this.onRequest);
    context.on('page', this.onPage);
    for (const page of context.pages()) this.follow(page);
  }

  /** Wakes the next {@link PageChanges.next} when the document of `page` changes. Call before reading it: a change during the read counts. */
  watch(page: Page): void {
    if (this.watched === page) return;
    this.watched = page;
    void changeOf(page).then(() => {
      if (this.watched === page) this.watched = undefined;
      this.signal();
    });
  }

  /** Forgets the changes so far: the look about to start sees them. */
  seen(): void {
    this.changed = false;
  }

  /** Resolves at the first change since the last look (at once when one came meanwhile), or after `ms`. */
  async next(ms: number): Promise<void> {
    if (this.changed) return;
    const stop = new AbortController();
    try {
      await Promise.race([new Promise<void>((resolve) => (this.wake = resolve)), sleep(ms, undefined, { signal: stop.signal }).catch(() => undefined)]);
    } finally {
      stop.abort();
      this.wake = undefined;
    }
  }

  stop(): void {
    this.context.off('request', this.onRequest);
    this.context.off('requestfinished', this.onRequest);
    this.context.off('requestfailed', this.onRequest);
    this.context.off('page', this.onPage);
    for (const page of this.pages) page.off('framenavigated', this.onChange);
    this.signal();
  }

  private follow(page: Page): void {
    if (this.pages.has(page)) return;
    this.pages.add(page);
    page.on('framenavigated', this.onChange);
  }

  private signal(): void {
    this.changed = true;
    this.wake?.();
  }
}

/**
 * Runs a command's work while watching the sign-in's pages for a refusal, and fails the command
 * as soon as one shows, instead of letting it wait out its time for an element (or a callback)
 * that will never come:
 * - an OAuth error (`error`, `error_description`) in the URL of any window: the provider's answer
 *   (a client without PKCE, a redirect URI it does not know) reaches the callback or a page;
 * - for a command that waits (`waits`), after {@link GRACE_MS} and once the step has posted
 *   something: the selected window shows a message (see `readPageMessages`) that was not there
 *   before the last command that may have submitted ({@link noteMessagesBeforeSubmit}), with no
 *   document, fetch or XHR request under way, on two looks in a row ({@link WATCH_MS} apart at
 *   least); without such a command, a sign-in form (a visible password field) with an error message.
 *
 * The pages are looked at when something changed ({@link PageChanges}: a request, a navigation, a
 * DOM mutation), at most every {@link WATCH_MS}, and after {@link IDLE_MS} without a change: a
 * page that waits for nothing costs no reading, and a sign-in is not slowed by its watcher.
 *
 * @throws StepFailure `oauth` or `refused` quoting what the page or the URL said.
 * @example
 * const decision = await watchRefusal(run, true, spec.run(run, cmd));
 */
export async function watchRefusal<T>(run: BrowserRun, waits: boolean, work: Promise<T>): Promise<T> {
  const started = Date.now();
  const pending = trackRequests(run.context);
  const changes = new PageChanges(run.context);
  let stopped = false;
  // A message counts when two looks in a row see it: a status the page shows as it signs in
  // ("Signed in as dave", an aria-live region) may be what the command waits for, and the
  // command then ends first.
  let seen: string | undefined;
  const check = async (): Promise<void> => {
    changes.seen();
    for (const page of run.context.pages()) {
      const error = page.isClosed() ? undefined : oauthErrorIn(page.url());
      if (error) throw new StepFailure('oauth', error);
    }
    if (!waits || Date.now() - started < GRACE_MS || !run.observed.requests.some((request) => request.method === 'POST')) return;
    // Watched before it is read: a change while the read runs wakes the next look.
    changes.watch(run.page);
    const page = await readPageMessages(run.page);
    if (stopped || !page) return;
    const before = run.messagesBeforeSubmit;
    const fresh = (before ? page.messages.filter((message) => !before.includes(message)) : page.passwordField ? page.messages : []).slice(0, QUOTED);
    // Shown while a request is under way ("Signing in"), a message is not the answer yet.
    if (!fresh.length || (before !== undefined && pending.size > 0)) {
      seen = undefined;
      return;
    }
    const quoted = fresh.map((m) => `"${m}"`).join('; ');
    if (seen !== quoted) {
      seen = quoted;
      return;
    }
    throw new StepFailure(
      'refused',
      page.passwordField ? `the sign-in form is shown again with an error: ${quoted}` : `the page shows an error since the sign-in was submitted: ${quoted}`,
    );
  };
  const watcher = (async (): Promise<never> => {
    for (;;) {
      const looked = Date.now();
      await check();
      if (stopped) break;
      // Look again when something changed, at the end of the grace, to confirm a message seen
      // once, or after a long quiet.
      const grace = started + GRACE_MS - Date.now();
      await changes.next(seen !== undefined ? WATCH_MS : waits && grace > 0 ? grace : IDLE_MS);
      const soon = looked + WATCH_MS - Date.now();
      if (soon > 0 && !stopped) await sleep(soon);
      if (stopped) break;
    }
    return new Promise<never>(() => undefined);
  })();
  // The work goes on in the background when the watcher wins: its late failure is nobody's.
  work.catch(() => undefined);
  try {
    return await Promise.race([work, watcher]);
  } finally {
    stopped = true;
    changes.stop();
  }
}
