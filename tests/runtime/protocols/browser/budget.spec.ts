import { BROWSER_BUDGET } from '../../../../src/runtime/protocols/browser/control-flow.js';
import { c, expect, failure, op, run, test } from './support.js';

// Issue 23, item 4: each loop is bounded, but loops nest. Three `times` of 1000 are 10^9 rounds of
// commands that never wait for the page (all microtasks): before the operation's budget they spun
// without end, and no timer, signal or test timeout got a turn.

test('three nested times of 1000 fail quickly at the budget, located, with a recommended fix', async ({ context, pages }) => {
  const started = Date.now();
  const error = await failure(
    context,
    op([c('open', `${pages.url}/flow.html`), c('times', '1000'), c('times', '1000'), c('times', '1000'), c('store', 'x', 'y'), c('end'), c('end'), c('end')]),
    {},
    { screenshotDir: test.info().outputPath('screenshots') },
  );
  expect(Date.now() - started).toBeLessThan(60_000);
  expect(error.code).toBe('BROWSER_STEP_FAILED');
  expect(error.message).toMatch(new RegExp(
    `^test "sign in", command [2-8] \\(\\w+[^)]*\\): the browser operation ran ${BROWSER_BUDGET.rounds} commands and loop rounds and would run more ` +
    `\\(the limit is ${BROWSER_BUDGET.rounds} for all its tests and loops together\\); screenshot: `,
  ));
  const rendered = error.render?.() ?? '';
  expect(rendered).toMatch(/while signing in user "alice", procedure "login", step 1 \(browser command [2-8] \(\w+\)\)/);
  expect(rendered).toContain('Recommended fix: The browser operation did more than a sign-in needs');
  expect(rendered).toContain('docs/browser.md, "Limits"');
});

test('a loop of commands that never wait for the page lets timers run', async ({ context, pages }) => {
  // Each echo records how many times a 1 ms interval has fired so far.
  let ticks = 0;
  const timer = setInterval(() => (ticks += 1), 1);
  const seen: number[] = [];
  try {
    await run(context, op([c('open', `${pages.url}/flow.html`), c('times', '1000'), c('times', '20'), c('echo', 'round'), c('end'), c('end')]), {}, {
      log: () => seen.push(ticks),
    });
  } finally {
    clearInterval(timer);
  }
  expect(seen).toHaveLength(20_000);
  // Without a yield, the interval would not fire between the first echo and the last.
  expect(seen.at(-1)! - seen[0]!).toBeGreaterThan(5);
});

test('the wall time of the operation is bounded, and a command\'s own timeout is cut to what is left', async ({ context, pages }) => {
  const url = `${pages.url}/flow.html`;
  const budget = { rounds: BROWSER_BUDGET.rounds, seconds: 1 };
  const started = Date.now();
  const slow = await failure(context, op([c('open', url), c('times', '1000'), c('pause', '50'), c('end')], { wait: 10 }), {}, {
    budget, screenshotDir: test.info().outputPath('screenshots'),
  });
  expect(slow.message).toMatch(/^test "sign in", command [1-4] \(\w+[^)]*\): the browser operation has run for 1s \(the limit is 1s for all its tests together\)/);
  // A wait of a minute for an element that never comes stops at the budget too, with the budget's reason.
  const waiting = await failure(context, op([c('open', url), c('waitForElementPresent', 'id=never', '60000')], { wait: 10 }), {}, {
    budget: { ...budget, seconds: 3 }, screenshotDir: test.info().outputPath('screenshots'),
  });
  expect(waiting.message).toMatch(/^test "sign in", command 2 \(waitForElementPresent "id=never"\): the browser operation has run for 3s/);
  expect(waiting.render?.()).toContain('Recommended fix: The browser operation did more than a sign-in needs');
  expect(Date.now() - started).toBeLessThan(30_000);
});
