import { optional, required } from '../args.js';
import type { CommandRows } from '../command-spec.js';
import { expandScript } from '../expand.js';
import { StepFailure } from '../failure.js';
import { elementText, elementValue } from '../read.js';
import type { BrowserRun, CommandInput } from '../state.js';

/** Store commands and scripts: each result becomes a variable returned with the step. */
export const STORE_COMMANDS: CommandRows = {
  store: {
    summary: 'Stores the target text in the variable named by value.',
    args: { target: optional('text'), value: required('variable') },
    async run(run, cmd) {
      run.vars.set(cmd.value, cmd.target);
    },
  },
  storeText: {
    summary: 'Stores the element\'s visible text (trimmed).',
    args: { target: required('locator'), value: required('variable') },
    async run(run, cmd) {
      run.vars.set(cmd.value, await elementText(await run.element(cmd), run.remaining()));
    },
  },
  storeValue: {
    summary: 'Stores the value of an input, select or textarea.',
    args: { target: required('locator'), value: required('variable') },
    async run(run, cmd) {
      run.vars.set(cmd.value, await elementValue(await run.element(cmd), run.remaining()));
    },
  },
  storeAttribute: {
    summary: 'Stores an attribute: target `locator@attribute` (split at the last `@`).',
    args: { target: required('attributeLocator'), value: required('variable') },
    async run(run, cmd) {
      const at = cmd.target.lastIndexOf('@');
      if (at <= 0) throw new StepFailure('invalid', 'expected LOCATOR@ATTRIBUTE, e.g. id=logo@src');
      const element = await run.element({ ...cmd, candidates: [{ locator: cmd.target.slice(0, at) }] });
      const value = await element.getAttribute(cmd.target.slice(at + 1), { timeout: run.remaining() });
      if (value === null) throw new StepFailure('not-found', `the element has no attribute "${cmd.target.slice(at + 1)}"`);
      run.vars.set(cmd.value, value);
    },
  },
  storeTitle: {
    summary: 'Stores the page title in the variable named by target (or value, as older exports write it).',
    args: { target: optional('variable'), value: optional('variable') },
    async run(run, cmd) {
      const name = cmd.target || cmd.value;
      if (!name) throw new StepFailure('invalid', 'storeTitle needs a variable name in target');
      // A click that navigates returns once the new page is committed, before its head is parsed;
      // WebDriver, which recorded flows were made with, waits for the page to load after a click.
      await run.page.waitForLoadState('domcontentloaded', { timeout: run.remaining() }).catch(() => undefined);
      run.vars.set(name, await run.page.title());
    },
  },
  storeJson: {
    summary: 'Parses the target as JSON and stores the value (scripts receive it as an object).',
    args: { target: required('json'), value: required('variable') },
    async run(run, cmd) {
      let value: unknown;
      try {
        value = JSON.parse(cmd.target);
      } catch (error) {
        throw new StepFailure('invalid', `the target is not JSON: ${(error as Error).message}`);
      }
      run.vars.set(cmd.value, value);
    },
  },
  storeElementCount: {
    summary: 'Stores how many elements the locator matches (no waiting).',
    args: { target: required('locator'), value: required('variable') },
    async run(run, cmd) {
      run.vars.set(cmd.value, await run.locateAll(cmd.candidates[0] ?? { locator: cmd.target }).count());
    },
  },
  executeScript: {
    summary: 'Runs JavaScript as the body of a function in the selected frame; `return` a value to store it in the variable named by value. `${name}` passes a variable as an argument.',
    args: { target: required('script'), value: optional('variable') },
    async run(run, cmd) {
      const result = await runScript(run, cmd, false);
      if (cmd.value) run.vars.set(cmd.value, result);
    },
  },
  executeAsyncScript: {
    summary: 'Like executeScript, for a body that returns a Promise; its result is stored.',
    args: { target: required('script'), value: optional('variable') },
    async run(run, cmd) {
      const result = await runScript(run, cmd, true);
      if (cmd.value) run.vars.set(cmd.value, result);
    },
  },
  runScript: {
    summary: 'Runs JavaScript in the selected frame\'s global scope (as a script tag would), ignoring its result.',
    args: { target: required('script') },
    async run(run, cmd) {
      const { source, args } = expandScript(cmd.target, run.vars, cmd.at('target'));
      // Playwright evaluates a string with a global eval: `var` at the top level makes a global, as in a
      // script tag. Variables passed as arguments need a function around the body.
      await evaluate(run, args.length ? `(function(){${source}\n}).apply(window, ${JSON.stringify(args)}), undefined` : `${source}\n;undefined`, 'script');
    },
  },
};

async function runScript(run: BrowserRun, cmd: CommandInput, isAsync: boolean): Promise<unknown> {
  return callFunction(run, cmd, (source) => `(${isAsync ? 'async ' : ''}function(){${source}\n})`, 'script');
}

/**
 * Whether the condition of `if`, `elseIf`, `while` or `repeatIf` (the command's target, a
 * JavaScript expression) holds in the selected frame. As Selenium IDE does, the expression is run
 * as `return (expression)` with each `${name}` passed as an argument, exactly as executeScript
 * passes them, and its result is read as JavaScript reads a condition (truthy or falsy).
 *
 * @throws StepFailure `condition` when the expression throws or does not parse.
 * @example
 * await evaluateCondition(run, cmd); // target '${count} < 3' with count = 2: true
 */
export async function evaluateCondition(run: BrowserRun, cmd: CommandInput): Promise<boolean> {
  // The newline keeps a trailing `// comment` in the expression from swallowing the parenthesis.
  return Boolean(await callFunction(run, cmd, (source) => `(function(){return (${source}\n)})`, 'condition'));
}

/** Calls the function `wrap` makes of the target's source, with the values of its `${name}`s as arguments. */
async function callFunction(
  run: BrowserRun,
  cmd: CommandInput,
  wrap: (source: string) => string,
  what: 'script' | 'condition',
): Promise<unknown> {
  const { source, args } = expandScript(cmd.target, run.vars, cmd.at('target'));
  return evaluate(run, `${wrap(source)}.apply(window, ${JSON.stringify(args)})`, what);
}

async function evaluate(run: BrowserRun, expression: string, what: 'script' | 'condition'): Promise<unknown> {
  try {
    return await run.frame.evaluate(expression);
  } catch (error) {
    const message = (error as Error).message.split('\n')[0] ?? '';
    throw new StepFailure(what, `the ${what} failed: ${message.replace(/^\w+\.evaluate: /, '')}`);
  }
}
