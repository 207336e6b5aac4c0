import { StepFailure } from './failure.js';
import { oauthErrorIn, readPageMessages } from './page-messages.js';
import type { BrowserRun } from './state.js';

/** How often a waiting command looks for a refusal. */
const WATCH_MS = 250;
/**
 * How long a command waits before a sign-in form with an error counts as a refusal: a command
 * that finds its element at once on a page with a banner ("please sign in again") is not one.
 */
const GRACE_MS = 1000;

/**
 * Runs a command's work while watching the sign-in's pages for a refusal, and fails the command
 * as soon as one shows, instead of letting it wait out its time for an element that will never
 * come:
 * - an OAuth error (`error`, `error_description`) in the URL of any window: the provider's answer
 *   (a client without PKCE, a redirect URI it does not know) reaches the callback or a page;
 * - for a command that waits (`waits`), after {@link GRACE_MS} and once the step has posted
 *   something: the selected window shows a sign-in form (a visible password field) with an error
 *   message, which is what a refused password gets.
 *
 * @throws StepFailure `oauth` or `refused` quoting what the page or the URL said.
 * @example
 * const decision = await watchRefusal(run, true, spec.run(run, cmd));
 */
export async function watchRefusal<T>(run: BrowserRun, waits: boolean, work: Promise<T>): Promise<T> {
  const started = Date.now();
  let stopped = false;
  const check = async (): Promise<void> => {
    for (const page of run.context.pages()) {
      const error = page.isClosed() ? undefined : oauthErrorIn(page.url());
      if (error) throw new StepFailure('oauth', error);
    }
    if (!waits || Date.now() - started < GRACE_MS || !run.observed.requests.some((request) => request.method === 'POST')) return;
    const page = await readPageMessages(run.page);
    if (!stopped && page?.passwordField && page.messages.length) {
      throw new StepFailure('refused', `the sign-in form is shown again with an error: ${page.messages.map((m) => `"${m}"`).join('; ')}`);
    }
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
