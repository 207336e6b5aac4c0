import { SHORT_WAIT, c, expect, failure, failureAfterOpen, op, run, test } from './support.js';

test('each waitFor* command waits for the page to change (controls.html changes after 400 ms)', async ({ context, pages }) => {
  const started = Date.now();
  await run(
    context,
    op([
      c('open', `${pages.url}/controls.html`),
      c('waitForElementPresent', 'id=late', '3000'),
      c('waitForElementNotPresent', 'id=later-hidden', '3000'),
      c('waitForElementVisible', 'id=later-shown', '3000'),
      c('waitForElementNotVisible', 'id=tip', '3000'),
      c('waitForElementEditable', 'id=later-enabled', '3000'),
      c('waitForElementNotEditable', 'id=later-disabled', '3000'),
      c('waitForText', 'id=countdown', 'done'),
      c('waitForElementNotEditable', 'id=readonly'),
    ]),
  );
  expect(Date.now() - started).toBeGreaterThanOrEqual(400);
});

const timeouts: Array<[command: string, target: string, message: RegExp]> = [
  ['waitForElementPresent', 'id=never', /no element matches the target within 0\.5s/],
  ['waitForElementNotPresent', 'id=hover', /Timeout \d+ms exceeded. \(waiting for locator\('\[id="hover"\]'\).first\(\) to be detached[;)]/],
  ['waitForElementVisible', 'id=tip', /Timeout \d+ms exceeded. \(waiting for locator\('\[id="tip"\]'\).first\(\) to be visible[;)]/],
  ['waitForElementNotVisible', 'id=hover', /Timeout \d+ms exceeded. \(waiting for locator\('\[id="hover"\]'\).first\(\) to be hidden[;)]/],
  ['waitForElementEditable', 'id=disabled', /the element is not editable \(still not after 0\.5s\)/],
  ['waitForElementNotEditable', 'id=editable', /the element is still editable \(still not after 0\.5s\)/],
];

for (const [command, target, message] of timeouts) {
  test(`${command} fails after the timeout in its value`, async ({ context, pages }) => {
    const error = await failure(context, op([c('open', `${pages.url}/controls.html`), c(command, target, '500')], { wait: 20 }));
    expect(error.code).toBe('BROWSER_STEP_FAILED');
    expect(error.message).toMatch(message);
  });
}

test('waitForText fails with the text it saw', async ({ context, pages }) => {
  const error = await failureAfterOpen(context, `${pages.url}/form.html`, [c('waitForText', 'id=heading', 'Dashboard')], SHORT_WAIT);
  expect(error.message).toContain(`the element's text does not equal the expected value (still not after ${SHORT_WAIT}s); actual: "Sign in"`);
});
