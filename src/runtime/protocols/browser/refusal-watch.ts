import type { BrowserContext, Request } from 'playwright-core';
import { StepFailure } from './failure.js';
import { oauthErrorIn, readPageMessages } from './page-messages.js';
import type { BrowserRun } from './state.js';

/** How often a waiting command looks for a refusal. */
const WATCH_MS = 250;
/**
 * How long a command waits before a message counts as a refusal: a command that finds its element
 * at once on a page with a banner ("please sign in again") is not one.
 */
const GRACE_MS = 1000;
/** Messages quoted in one error, at most. */
const QUOTED = 3;

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
    if (['document', 'fetch', 'xhr'].includes(request.resourceType())) requests.add(request);
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

/**
 * Runs a command's work while watching the sign-in's pages for a refusal, and fails the command
 * as soon as one shows, instead of letting it wait out its time for an element (or a callback)
 * that will never come:
 * - an OAuth error (`error`, `error_description`) in the URL of any window: the provider's answer
 *   (a client without PKCE, a redirect URI it does not know) reaches the callback or a page;
 * - for a command that waits (`waits`), after {@link GRACE_MS} and once the step has posted
 *   something: the selected window shows a message (see `readPageMessages`) that was not there
 *   before the last command that may have submitted ({@link noteMessagesBeforeSubmit}), with no
 *   document, fetch or XHR request under way, on two checks in a row; without such a
 *   command, a sign-in form (a visible password field) with an error message.
 *
 * @throws StepFailure `oauth` or `refused` quoting what the page or the URL said.
 * @example
 * const decision = await watchRefusal(run, true, spec.run(run, cmd));
 */
export async function watchRefusal<T>(run: BrowserRun, waits: boolean, work: Promise<T>): Promise<T> {
  const started = Date.now();
  const pending = trackRequests(run.context);
  let stopped = false;
  // A message counts when two checks in a row see it: a status the page shows as it signs in
  // ("Signed in as dave", an aria-live region) may be what the command waits for, and the
  // command then ends first.
  let seen: string | undefined;
  const check = async (): Promise<void> => {
    for (const page of run.context.pages()) {
      const error = page.isClosed() ? undefined : oauthErrorIn(page.url());
      if (error) throw new StepFailure('oauth', error);
    }
    if (!waits || Date.now() - started < GRACE_MS || !run.observed.requests.some((request) => request.method === 'POST')) return;
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
    await check();
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, WATCH_MS));
      if (stopped) return new Promise<never>(() => undefined);
      await check();
    }
  })();
  // The work goes on in the background when the watcher wins: its late failure is nobody's.
  work.catch(() => undefined);
  try {
    return await Promise.race([work, watcher]);
  } finally {
    stopped = true;
  }
}
