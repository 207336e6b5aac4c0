import type { Locator } from 'playwright-core';
import { optional, required } from '../args.js';
import type { BrowserCommandSpec, CommandRows } from '../command-spec.js';
import { elementText, isEditable } from '../read.js';
import type { BrowserRun, CommandInput } from '../state.js';

/** Explicit waits; the value is a timeout in milliseconds (default: the step's wait_for_seconds). */
export const WAIT_COMMANDS: CommandRows = {
  waitForElementPresent: waitFor('present in the page', async (run, cmd) => {
    await run.element(cmd);
  }),
  waitForElementNotPresent: waitFor('gone from the page', async (run, cmd) => {
    await primary(run, cmd).waitFor({ state: 'detached', timeout: run.remaining() });
  }),
  waitForElementVisible: waitFor('visible', async (run, cmd) => {
    await (await run.element(cmd)).waitFor({ state: 'visible', timeout: run.remaining() });
  }),
  waitForElementNotVisible: waitFor('hidden or absent', async (run, cmd) => {
    await primary(run, cmd).waitFor({ state: 'hidden', timeout: run.remaining() });
  }),
  waitForElementEditable: waitFor('editable (enabled and not read-only)', async (run, cmd) => {
    const element = await run.element(cmd);
    await run.until('the element is not editable', async () => ({ ok: (await editable(element, run)) === true }), 'timeout');
  }),
  waitForElementNotEditable: waitFor('not editable (disabled or read-only)', async (run, cmd) => {
    const element = await run.element(cmd);
    await run.until('the element is still editable', async () => ({ ok: (await editable(element, run)) === false }), 'timeout');
  }),
  waitForText: {
    summary: 'Waits until the element\'s text equals the value.',
    args: { target: required('locator'), value: required('text') },
    async run(run, cmd) {
      const element = await run.element(cmd);
      await run.until(
        'the element\'s text does not equal the expected value',
        async () => {
          const text = await elementText(element, run.readTimeout()).catch(() => undefined);
          return { ok: text === cmd.value, actual: text === undefined ? undefined : JSON.stringify(text) };
        },
        'timeout',
      );
    },
  },
};

function waitFor(state: string, wait: (run: BrowserRun, cmd: CommandInput) => Promise<void>): BrowserCommandSpec {
  return {
    summary: `Waits until the element is ${state}; value = timeout in ms.`,
    args: { target: required('locator'), value: optional('milliseconds') },
    async run(run, cmd) {
      if (cmd.value) run.startClock(Number(cmd.value));
      await wait(run, cmd);
    },
  };
}

/**
 * The target alone: negative waits and assertions do not fall back to `targets`.
 *
 * @example
 * await primary(run, cmd).waitFor({ state: 'detached', timeout: run.remaining() });
 */
export function primary(run: BrowserRun, cmd: CommandInput): Locator {
  const [main] = cmd.candidates;
  return run.locate(main ?? { locator: cmd.target });
}

/** Whether the element is editable; undefined when it could not be read (gone, or the page busy). */
async function editable(element: Locator, run: BrowserRun): Promise<boolean | undefined> {
  return isEditable(element, run.readTimeout()).catch(() => undefined);
}
