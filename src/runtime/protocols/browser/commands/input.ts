import type { Locator } from 'playwright-core';
import { required } from '../args.js';
import type { CommandRows } from '../command-spec.js';
import { expandKeys } from '../expand.js';
import { StepFailure } from '../failure.js';
import { isEditable } from '../read.js';
import type { BrowserRun, CommandInput } from '../state.js';

/** Typing, keys, selects and forms. */
export const INPUT_COMMANDS: CommandRows = {
  type: {
    summary: 'Sets the value of an input or textarea (replacing what it held), as though typed; on other inputs sets `value`.',
    args: { target: required('locator'), value: required('text') },
    async run(run, cmd) {
      const element = await run.element(cmd);
      try {
        await element.fill(cmd.value, { timeout: run.remaining() });
      } catch (error) {
        if (!/cannot be filled|not an <input>/.test(String((error as Error).message))) throw error;
        await element.evaluate((el, value) => {
          (el as HTMLInputElement).value = value;
          el.dispatchEvent(new Event('input', { bubbles: true }));
          el.dispatchEvent(new Event('change', { bubbles: true }));
        }, cmd.value);
      }
    },
  },
  sendKeys: {
    summary: 'Types key by key at the end of the element\'s content; `${KEY_ENTER}`, `${KEY_TAB}`, … press special keys, `${KEY_SHIFT}` … hold modifiers until `${KEY_NULL}`.',
    args: { target: required('locator'), value: required('keys') },
    async run(run, cmd) {
      const pieces = expandKeys(cmd.value, run.vars, cmd.at('value'));
      const element = await run.element(cmd);
      await element.waitFor({ state: 'visible', timeout: run.remaining() });
      await run.until(
        'the element is not editable (disabled or read-only)',
        async () => ({ ok: await isEditable(element, run.readTimeout()).catch(() => false) }),
        'timeout',
      );
      await focusAtEnd(element);
      const held: string[] = [];
      const keyboard = run.page.keyboard;
      for (const piece of pieces) {
        if (piece.kind === 'text') {
          if (!held.length) await keyboard.type(piece.text);
          // keyboard.type ignores held modifiers: press key by key, Shift making capitals as on a keyboard.
          else for (const char of piece.text) await keyboard.press(held.includes('Shift') ? char.toUpperCase() : char);
        }
        else if (piece.kind === 'press') await keyboard.press(piece.key);
        else if (piece.kind === 'modifier') {
          await keyboard.down(piece.key);
          held.push(piece.key);
        } else {
          for (const key of held.splice(0).reverse()) await keyboard.up(key);
        }
      }
      for (const key of held.reverse()) await keyboard.up(key);
    },
  },
  select: {
    summary: 'Selects an option of a drop-down: `label=…`, `value=…`, `index=N` (0-based), `id=…`; a bare text is a label.',
    args: { target: required('locator'), value: required('optionLocator') },
    async run(run, cmd) {
      const element = await run.element(cmd);
      await element.selectOption({ index: await optionIndex(run, element, cmd) }, { timeout: run.remaining() });
    },
  },
  addSelection: {
    summary: 'Adds an option (same option locators as select) to the selection of a multi-select.',
    args: { target: required('locator'), value: required('optionLocator') },
    async run(run, cmd) {
      const element = await run.element(cmd);
      const index = await optionIndex(run, element, cmd);
      const selected = await selectedIndexes(element);
      await element.selectOption([...new Set([...selected, index])].map((i) => ({ index: i })), { timeout: run.remaining() });
    },
  },
  removeSelection: {
    summary: 'Removes an option (same option locators as select) from the selection of a multi-select.',
    args: { target: required('locator'), value: required('optionLocator') },
    async run(run, cmd) {
      const element = await run.element(cmd);
      const index = await optionIndex(run, element, cmd);
      const selected = (await selectedIndexes(element)).filter((i) => i !== index);
      await element.selectOption(selected.map((i) => ({ index: i })), { timeout: run.remaining() });
    },
  },
  editContent: {
    summary: 'Sets the text of a contenteditable element.',
    args: { target: required('locator'), value: required('text') },
    async run(run, cmd) {
      const element = await run.element(cmd);
      const done = await element.evaluate((el, value) => {
        if (!(el as HTMLElement).isContentEditable) return false;
        (el as HTMLElement).innerText = value;
        el.dispatchEvent(new Event('input', { bubbles: true }));
        return true;
      }, cmd.value);
      if (!done) throw new StepFailure('invalid', 'the element is not content editable');
    },
  },
  submit: {
    summary: 'Submits the form the element is (or is in), running its submit handlers (`requestSubmit`).',
    args: { target: required('locator') },
    async run(run, cmd) {
      const element = await run.element(cmd);
      const submitted = await element.evaluate((el) => {
        const form = el instanceof HTMLFormElement ? el : ((el as HTMLInputElement).form ?? el.closest('form'));
        if (!form) return false;
        form.requestSubmit();
        return true;
      });
      if (!submitted) throw new StepFailure('invalid', 'the element is not a form nor inside one');
    },
  },
};

/** Focuses the element (unless it has focus) with the caret after its content, as WebDriver does. */
async function focusAtEnd(element: Locator): Promise<void> {
  await element.evaluate((el) => {
    if (el.ownerDocument.activeElement === el) return;
    (el as HTMLElement).focus();
    const field = el as HTMLInputElement;
    try {
      if (typeof field.setSelectionRange === 'function') field.setSelectionRange(field.value.length, field.value.length);
    } catch {
      // email and number inputs have no selection
    }
  });
}

/**
 * The index of the option a Selenium IDE option locator names, waiting for it to exist.
 *
 * @throws StepFailure `not-found` when no option matches in time.
 */
async function optionIndex(run: BrowserRun, element: Locator, cmd: CommandInput): Promise<number> {
  const prefixed = /^(label|value|index|id)=([\s\S]*)$/.exec(cmd.value);
  const by = prefixed?.[1] ?? 'label';
  const wanted = prefixed ? (prefixed[2] ?? '') : cmd.value;
  let index = -1;
  await run.until(
    `no option matches the value (${by}=)`,
    async () => {
      index = await element.evaluate(
        (el, [kind, text]) => {
          const norm = (s: string): string => s.replace(/\s+/g, ' ').trim();
          const options = Array.from((el as HTMLSelectElement).options ?? []);
          if (kind === 'index') return Number(text) < options.length ? Number(text) : -1;
          return options.findIndex((option) =>
            kind === 'value' ? option.value === text : kind === 'id' ? option.id === text : norm(option.text) === norm(text),
          );
        },
        [by, wanted] as const,
      );
      return { ok: index >= 0 };
    },
    'not-found',
  );
  return index;
}

async function selectedIndexes(element: Locator): Promise<number[]> {
  return element.evaluate((el) =>
    Array.from((el as HTMLSelectElement).options ?? []).flatMap((option, i) => (option.selected ? [i] : [])),
  );
}
