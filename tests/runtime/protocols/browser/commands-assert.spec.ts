import { SHORT_WAIT, c, expect, failureAfterOpen, op, run, test } from './support.js';

/** [command, target, value that holds on controls.html, value that does not]. */
const CASES: Array<[command: string, target: string, holds: string, fails: string]> = [
  ['assertText', 'id=hover', 'Hover me', 'Hover you'],
  ['assertNotText', 'id=hover', 'Hover you', 'Hover me'],
  ['assertValue', 'id=editable', 'padded', 'padded!'],
  ['assertNotValue', 'id=editable', 'other', 'padded'],
  ['assertSelectedValue', 'id=single', 'a', 'b'],
  ['assertNotSelectedValue', 'id=single', 'b', 'a'],
  ['assertSelectedLabel', 'id=single', 'Alpha', 'Beta'],
  ['assertNotSelectedLabel', 'id=single', 'Beta', 'Alpha'],
];

/** [command, target that holds, target that does not]. */
const STATES: Array<[command: string, holds: string, fails: string]> = [
  ['assertChecked', 'id=radio2', 'id=check'],
  ['assertNotChecked', 'id=check', 'id=radio2'],
  ['assertEditable', 'id=editable', 'id=readonly'],
  ['assertNotEditable', 'id=disabled', 'id=editable'],
  ['assertElementPresent', 'css=#pad', 'css=#nowhere'],
  ['assertElementNotPresent', 'css=#nowhere', 'css=#pad'],
];

const verify = (command: string): string => command.replace(/^assert/, 'verify');

test('every assertion and its verify twin pass when the page holds what they expect', async ({ context, pages }) => {
  const commands = [
    c('open', `${pages.url}/controls.html`),
    c('store', 'x', 'letter'),
    ...CASES.flatMap(([command, target, holds]) => [c(command, target, holds), c(verify(command), target, holds)]),
    ...STATES.flatMap(([command, holds]) => [c(command, holds), c(verify(command), holds)]),
    c('assertTitle', 'Controls'),
    c('verifyTitle', 'Controls'),
    c('assert', 'letter', 'x'),
    c('verify', 'letter', 'x'),
  ];
  await run(context, op(commands));
});

for (const [command, target, , fails] of CASES) {
  for (const name of [command, verify(command)]) {
    test(`${name} fails when the page does not hold the value`, async ({ context, pages }) => {
      const error = await failureAfterOpen(context, `${pages.url}/controls.html`, [c(name, target, fails)], SHORT_WAIT);
      expect(error.code).toBe('BROWSER_STEP_FAILED');
      expect(error.message).toContain(`command 1 (${name} "${target}")`);
      expect(error.message).toMatch(new RegExp(`(does not equal the expected value|equals the value it must not) \\(still not after ${String(SHORT_WAIT).replace('.', '\\.')}s\\)`));
    });
  }
}

for (const [command, , fails] of STATES) {
  for (const name of [command, verify(command)]) {
    test(`${name} fails on ${fails}`, async ({ context, pages }) => {
      const error = await failureAfterOpen(context, `${pages.url}/controls.html`, [c(name, fails)], SHORT_WAIT);
      expect(error.code).toBe('BROWSER_STEP_FAILED');
      expect(error.message).toContain(`command 1 (${name} "${fails}")`);
    });
  }
}

test('assertText reports the text it saw; assertTitle the title', async ({ context, pages }) => {
  const text = await failureAfterOpen(context, `${pages.url}/controls.html`, [c('assertText', 'id=hover', 'Hover you')], SHORT_WAIT);
  expect(text.message).toContain('actual: "Hover me"');
  const title = await failureAfterOpen(context, `${pages.url}/controls.html`, [c('verifyTitle', 'Dashboard')], SHORT_WAIT);
  expect(title.message).toContain(`the page title does not equal the expected title (still not after ${SHORT_WAIT}s); actual: "Controls"`);
});

test('assert and verify compare a variable with the value, as text', async ({ context, pages }) => {
  await run(context, op([c('open', `${pages.url}/form.html`), c('storeJson', '[1,2]', 'list'), c('assert', 'list', '[1,2]')]));
  const mismatch = await failureAfterOpen(context, `${pages.url}/form.html`, [c('store', 'one', 'v'), c('verify', 'v', 'two')], SHORT_WAIT);
  expect(mismatch.message).toContain('the variable "v" does not equal the expected value');
  const unset = await failureAfterOpen(context, `${pages.url}/form.html`, [c('assert', 'nothing', '')], SHORT_WAIT);
  expect(unset.message).toContain('the variable "nothing" is not set');
});
