import type { Locator } from 'playwright-core';
import { optional, required, type ArgKind } from '../args.js';
import type { BrowserCommandSpec, CommandRows } from '../command-spec.js';
import { StepFailure } from '../failure.js';
import { variableText } from '../expand.js';
import { elementText, elementValue, isChecked, isEditable, selectedOption } from '../read.js';
import type { BrowserRun, CommandInput } from '../state.js';
import { primary } from './waits.js';

type Check = { ok: boolean; actual?: string };

/**
 * An element assertion: `read` what the page shows and judge it; retried until it holds or the
 * command's time is up (as Playwright's expect does), then the step fails.
 */
function onElement(
  summary: string,
  what: string,
  judge: (element: Locator, run: BrowserRun, cmd: CommandInput) => Promise<Check>,
  value?: ArgKind,
): BrowserCommandSpec {
  return {
    summary,
    args: value ? { target: required('locator'), value: required(value) } : { target: required('locator') },
    async run(run, cmd) {
      const element = await run.element(cmd);
      await run.until(what, () => judge(element, run, cmd).catch((error: Error) => ({ ok: false, actual: firstLine(error) })));
    },
  };
}

const quoted = (text: string): string => JSON.stringify(text);

const ASSERTIONS: CommandRows = {
  assert: {
    summary: 'Checks that a variable (target) equals the value, compared as text.',
    args: { target: required('variable'), value: optional('text') },
    async run(run, cmd) {
      if (!run.vars.has(cmd.target)) throw new StepFailure('assertion', `the variable "${cmd.target}" is not set`);
      if (variableText(run.vars.get(cmd.target)) !== cmd.value) {
        throw new StepFailure('assertion', `the variable "${cmd.target}" does not equal the expected value`);
      }
    },
  },
  assertText: onElement('Checks that the element\'s visible text (trimmed) equals the value.', 'the element\'s text does not equal the expected value',
    async (element, run, cmd) => {
      const text = await elementText(element, run.readTimeout());
      return { ok: text === cmd.value, actual: quoted(text) };
    }, 'text'),
  assertNotText: onElement('Checks that the element\'s visible text does not equal the value.', 'the element\'s text equals the value it must not',
    async (element, run, cmd) => ({ ok: (await elementText(element, run.readTimeout())) !== cmd.value }), 'text'),
  assertValue: onElement('Checks that the value of an input (whitespace-trimmed) equals the value.', 'the element\'s value does not equal the expected value',
    async (element, run, cmd) => {
      const value = (await elementValue(element, run.readTimeout())).trim();
      return { ok: value === cmd.value, actual: quoted(value) };
    }, 'text'),
  assertNotValue: onElement('Checks that the value of an input (whitespace-trimmed) does not equal the value.', 'the element\'s value equals the value it must not',
    async (element, run, cmd) => ({ ok: (await elementValue(element, run.readTimeout())).trim() !== cmd.value }), 'text'),
  assertChecked: onElement('Checks that a checkbox or radio button is checked.', 'the element is not checked',
    async (element, run) => ({ ok: await isChecked(element, run.readTimeout()) })),
  assertNotChecked: onElement('Checks that a checkbox or radio button is not checked.', 'the element is checked',
    async (element, run) => ({ ok: !(await isChecked(element, run.readTimeout())) })),
  assertEditable: onElement('Checks that the element is editable (enabled and not read-only).', 'the element is not editable',
    async (element, run) => ({ ok: await isEditable(element, run.readTimeout()) })),
  assertNotEditable: onElement('Checks that the element is not editable (disabled or read-only).', 'the element is editable',
    async (element, run) => ({ ok: !(await isEditable(element, run.readTimeout())) })),
  assertSelectedValue: onElement('Checks the value of the selected option of a drop-down.', 'the selected option\'s value does not equal the expected value',
    async (element, run, cmd) => {
      const { value } = await selectedOption(element, run.readTimeout());
      return { ok: value === cmd.value, actual: quoted(value) };
    }, 'text'),
  assertNotSelectedValue: onElement('Checks that the selected option\'s value is not the value.', 'the selected option\'s value equals the value it must not',
    async (element, run, cmd) => ({ ok: (await selectedOption(element, run.readTimeout())).value !== cmd.value }), 'text'),
  assertSelectedLabel: onElement('Checks the label of the selected option of a drop-down.', 'the selected option\'s label does not equal the expected value',
    async (element, run, cmd) => {
      const { label } = await selectedOption(element, run.readTimeout());
      return { ok: label === cmd.value, actual: quoted(label) };
    }, 'text'),
  assertNotSelectedLabel: onElement('Checks that the selected option\'s label is not the value.', 'the selected option\'s label equals the value it must not',
    async (element, run, cmd) => ({ ok: (await selectedOption(element, run.readTimeout())).label !== cmd.value }), 'text'),
  assertElementPresent: {
    summary: 'Checks that the element is in the page (its `targets` are tried too).',
    args: { target: required('locator') },
    async run(run, cmd) {
      await run.element(cmd);
    },
  },
  assertElementNotPresent: {
    summary: 'Checks that the target matches no element (waits for it to go).',
    args: { target: required('locator') },
    async run(run, cmd) {
      const locator = primary(run, cmd);
      await run.until('the element is in the page', async () => ({ ok: (await locator.count()) === 0 }));
    },
  },
  assertTitle: {
    summary: 'Checks that the page title equals the target.',
    args: { target: optional('text') },
    async run(run, cmd) {
      await run.until('the page title does not equal the expected title', async () => {
        const title = await run.page.title().catch(() => '');
        return { ok: title === cmd.target, actual: quoted(title) };
      });
    },
  },
};

/**
 * Every `assert*` command, and its `verify*` twin. Selenium IDE lets a test go on after a failed
 * verify; a sign-in must be trustworthy, so here a failed verify fails the step as an assert does.
 */
export const ASSERTION_COMMANDS: CommandRows = Object.fromEntries(
  Object.entries(ASSERTIONS).flatMap(([name, spec]) => [
    [name, spec],
    [name.replace(/^assert/, 'verify'), { ...spec, summary: `As ${name}; a failure fails the sign-in too.` }],
  ]),
);

function firstLine(error: Error): string {
  return (error.message.split('\n')[0] ?? '').replace(/^\w+\.\w+: /, '');
}
