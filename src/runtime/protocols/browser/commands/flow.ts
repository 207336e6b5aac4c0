import { optional, required } from '../args.js';
import type { BrowserCommandSpec, CommandRows } from '../command-spec.js';
import { MAX_LOOP_ITERATIONS } from '../control-flow.js';
import { StepFailure } from '../failure.js';
import type { CommandInput } from '../state.js';
import { evaluateCondition } from './store.js';

/**
 * A loop's decision to run its body once more, refused past {@link MAX_LOOP_ITERATIONS}: a
 * condition that never turns false fails here, at the loop, rather than hanging the sign-in.
 */
function again(cmd: CommandInput, decision: boolean, limit = loopLimit(cmd)): boolean {
  if (decision && (cmd.iteration ?? 0) >= limit) {
    throw new StepFailure('loop', `the loop ran ${limit} times and would run again (the limit is ${limit})`);
  }
  return decision;
}

/** The most a loop may ever be told to run: its value may raise the default, not without end. */
const MAX_LOOP_LIMIT = 100_000;

/**
 * The loop's limit: its value, as Selenium IDE reads the value of `while`, `repeatIf` and `times`
 * ("the max number of loops"), else {@link MAX_LOOP_ITERATIONS}.
 */
function loopLimit(cmd: CommandInput): number {
  const text = cmd.value?.trim();
  if (!text) return MAX_LOOP_ITERATIONS;
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > MAX_LOOP_LIMIT) {
    throw new StepFailure('invalid', `the loop limit (value) must be a whole number from 1 to ${MAX_LOOP_LIMIT}, not "${text.slice(0, 40)}"`);
  }
  return Number(text);
}

/** A command that only marks where a block starts, branches or ends: the runner follows the block structure. */
function marker(summary: string): BrowserCommandSpec {
  return { summary, args: {}, async run() {} };
}

/**
 * Selenium IDE's control flow. The rows give the commands' arguments (checked by `multiauth
 * validate`) and make each decision; where the run goes next is the block structure's business
 * (control-flow.ts), which the runner follows.
 */
export const FLOW_COMMANDS: CommandRows = {
  if: {
    summary: 'Runs the commands up to the next elseIf, else or end when the JavaScript expression is true (`${name}` stands for the variable\'s value).',
    args: { target: required('condition') },
    run: (run, cmd) => evaluateCondition(run, cmd),
  },
  elseIf: {
    summary: 'Within an if block: when no condition above held, runs its commands when its expression is true.',
    args: { target: required('condition') },
    run: (run, cmd) => evaluateCondition(run, cmd),
  },
  else: marker('Within an if block: runs its commands when no condition above held.'),
  end: marker('Closes the innermost if, while, times or forEach block.'),
  while: {
    summary: `Runs the commands up to its end while the expression is true (checked before each round; at most the value's number of rounds, default ${MAX_LOOP_ITERATIONS}).`,
    args: { target: required('condition'), value: optional('count') },
    run: async (run, cmd) => again(cmd, await evaluateCondition(run, cmd)),
  },
  do: marker('Opens a block that runs once, then again while the repeatIf that closes it is true.'),
  repeatIf: {
    summary: `Closes a do block: runs it again when the expression is true (at most the value's number of rounds, default ${MAX_LOOP_ITERATIONS}).`,
    args: { target: required('condition'), value: optional('count') },
    run: async (run, cmd) => again(cmd, await evaluateCondition(run, cmd)),
  },
  times: {
    summary: `Runs the commands up to its end the given number of times (at most the value's number, default ${MAX_LOOP_ITERATIONS}).`,
    args: { target: required('count'), value: optional('count') },
    async run(_run, cmd) {
      if (!/^\d+$/.test(cmd.target)) throw new StepFailure('invalid', `times needs a whole number of times, not "${cmd.target}"`);
      return again(cmd, (cmd.iteration ?? 0) < Number(cmd.target));
    },
  },
  forEach: {
    summary: `Runs the commands up to its end once per item of the array variable (target), the item in the variable named by value (at most ${MAX_LOOP_ITERATIONS} items).`,
    args: { target: required('variable'), value: required('variable') },
    async run(run, cmd) {
      if (!run.vars.has(cmd.target)) throw new StepFailure('invalid', `the variable "${cmd.target}" is not set`);
      const items = run.vars.get(cmd.target);
      if (!Array.isArray(items)) {
        throw new StepFailure('invalid', `the variable "${cmd.target}" is not an array (it holds ${describe(items)}); store an array with ` +
          `storeJson or executeScript (storeJson \${${cmd.target}} turns JSON text into one)`);
      }
      const index = cmd.iteration ?? 0;
      // forEach's value names the item's variable: its limit is the default one.
      if (!again(cmd, index < items.length, MAX_LOOP_ITERATIONS)) return false;
      run.vars.set(cmd.value, items[index]);
      return true;
    },
  },
  break: marker('Leaves the innermost while, times, forEach or do loop (not a Selenium IDE command: a multiauth addition).'),
};

/** What a variable holds, for a message (not its value: it may be a secret). */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return value.trim().startsWith('[') ? 'text that looks like a JSON array' : 'text';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
