import type { BrowserContext } from 'playwright-core';
import { FIXTURE_PASSWORD } from '../../../../fixtures/browser-pages/server.js';
import { c, expect, failure, op, test } from './support.js';

// The refusal watch of a waiting command reads the selected window's messages when the page
// changed (a request, a navigation, a DOM mutation), not on a timer: a page that says nothing
// costs no reading while a command waits on it, and a message a script shows long after the
// answer, with no request, still ends the wait.

/** The sign-in of the fixture form (a POST), then the help page, which shows no message. */
const signedInOnHelp = (url: string) => [
  c('open', `${url}/form.html`),
  c('type', 'id=username', 'alice'),
  c('type', 'id=password', '{{password}}'),
  c('click', 'id=go'),
  c('waitForElementPresent', 'id=greeting'),
  c('open', `${url}/help.html`),
];

/** Counts, per document, the reads of the page's messages (their one query for marked elements). */
async function countMessageReads(context: BrowserContext): Promise<() => Promise<number>> {
  await context.addInitScript(() => {
    const counted = window as unknown as { messageReads: number };
    counted.messageReads = 0;
    const query = Document.prototype.querySelectorAll;
    Document.prototype.querySelectorAll = function (this: Document, selectors: string) {
      if (selectors.includes('[role="alert"]')) counted.messageReads += 1;
      return query.call(this, selectors);
    } as typeof query;
  });
  return () => context.pages()[0]!.evaluate(() => (window as unknown as { messageReads: number }).messageReads);
}

test('a command waiting on a page that does not change reads its messages at the end of the grace and after long quiets only', async ({ context, pages }) => {
  const reads = await countMessageReads(context);
  const error = await failure(context, op([...signedInOnHelp(pages.url), c('waitForElementPresent', 'id=never')], { wait: 4 }), { password: FIXTURE_PASSWORD });
  expect(error.message).toContain('command 7 (waitForElementPresent "id=never"): no element matches the target within 4s');
  // After a POST, a watch on a timer read the page every 250 ms from the end of the grace (1 s):
  // a dozen reads in 4 s. Now: once at the end of the grace, once after 2 s of quiet, maybe once
  // more at the deadline, and once for the failure's message.
  expect(await reads()).toBeLessThanOrEqual(4);
});

test('a message a script shows long after the answer, with no request, ends the wait and is quoted', async ({ context, pages }) => {
  await countMessageReads(context);
  // The step signs in in the context's first window: the test acts on it meanwhile.
  const page = await context.newPage();
  const waiting = failure(context, op([...signedInOnHelp(pages.url), c('waitForElementPresent', 'id=never')], { wait: 8 }), { password: FIXTURE_PASSWORD });
  await page.waitForURL(/help\.html$/);
  // Past the grace, after a first look at the quiet page: only the page's own change can tell.
  await page.waitForFunction(() => (window as unknown as { messageReads: number }).messageReads >= 1, undefined, { timeout: 8000 });
  const shown = Date.now();
  await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<div role="alert">Your account is locked.</div>'));
  const error = await waiting;
  expect(error.message).toContain('command 7 (waitForElementPresent "id=never"): the page shows an error since the sign-in was submitted: "Your account is locked."');
  // Two looks 250 ms apart after the change, not the 8 s of the command.
  expect(Date.now() - shown).toBeLessThan(5000);
});
