/**
 * The block structure of a recorded test (Selenium IDE's control flow), built once from the flat
 * list of commands: what the runner does at each command and where it goes next. Pure: no
 * browser, no variables; `multiauth validate` and the runner both read it.
 */

/**
 * Most times the body of one loop may run each time the loop is entered. Selenium IDE stops
 * `while` and `do` after 1000 rounds by default; here every loop (`times`, `forEach` too) has the
 * same bound, so a condition that never turns false fails the sign-in instead of hanging it.
 */
export const MAX_LOOP_ITERATIONS = 1000;

/**
 * Bounds on one browser operation (a recorded project: all its tests), whatever its loops say.
 * Each loop has its own bound ({@link MAX_LOOP_ITERATIONS}), but loops nest: three `times` of 1000 are 10^9
 * rounds. docs/browser.md ("Limits") lists them.
 */
export const BROWSER_BUDGET = Object.freeze({
  /** Commands run, conditions evaluated and blocks closed, every test and loop together. */
  rounds: 100_000,
  /** Wall-clock seconds from the first command; each command's own timeout is cut to what is left. */
  seconds: 300,
  /** Rounds between two waits for the event loop: a loop of commands that never wait for the page is all microtasks. */
  yieldEvery: 64,
});

/** The control-flow commands, as Selenium IDE writes them in `.side` files. */
export const FLOW_COMMAND_NAMES = ['if', 'elseIf', 'else', 'end', 'while', 'do', 'repeatIf', 'times', 'forEach', 'break'] as const;

/** A control-flow command's name. */
export type FlowCommandName = (typeof FLOW_COMMAND_NAMES)[number];

/** The loops whose body comes before `end` (a `do` block ends with `repeatIf`). */
export type LoopName = 'while' | 'times' | 'forEach';

/**
 * What the runner does at one command. Indexes are 0-based positions in the test's commands; a
 * jump to `commands.length` ends the test.
 */
export type FlowStep =
  /** An ordinary command (disabled and empty ones too): run it, go on. */
  | { kind: 'command' }
  /** Test the condition: true enters the branch below; false goes to `next` (the following `elseIf`, `else` or `end`). */
  | { kind: 'if'; next: number }
  /** Tested like `if` when a condition above was false; reached from the branch above, goes to `end` + 1. */
  | { kind: 'elseIf'; next: number; end: number }
  /** Entered when every condition above was false; reached from the branch above, goes to `end` + 1. */
  | { kind: 'else'; end: number }
  /** `while`, `times`, `forEach`: a true decision runs the body once more; false goes to `exit` (after its `end`). */
  | { kind: 'loop'; command: LoopName; exit: number }
  /** Starts the body of a `do` loop (which always runs once). */
  | { kind: 'do' }
  /** A true condition runs the body of the `do` at `loop` again (from `loop` + 1); false goes on. */
  | { kind: 'repeatIf'; loop: number }
  /** Closes a block; after a loop's body, goes back to the loop at `loop` to decide again. */
  | { kind: 'end'; loop?: number }
  /** Leaves the innermost loop (the one at `loop`): goes to `exit`, after its `end` or `repeatIf`. */
  | { kind: 'break'; loop: number; exit: number };

/** A block that does not nest: where it is (0-based) and what is wrong. */
export interface FlowIssue {
  index: number;
  message: string;
}

/** The block structure of a test: one step per command, and what keeps it from running. */
export interface Flow {
  steps: FlowStep[];
  /** In command order; when there is one, `steps` must not be followed. */
  issues: FlowIssue[];
}

/**
 * Whether a command name is one of Selenium IDE's control-flow commands (or `break`).
 *
 * @example
 * isFlowCommand('repeatIf'); // true
 * isFlowCommand('//if');     // false: a disabled command is an ordinary (skipped) one
 */
export function isFlowCommand(name: string): name is FlowCommandName {
  return (FLOW_COMMAND_NAMES as readonly string[]).includes(name);
}

interface Block {
  kind: 'if' | 'do' | LoopName;
  at: number;
  /** The `if`, `elseIf` and `else` of an if block, in order. */
  clauses: number[];
  elseAt?: number;
  /** `break`s whose exit is this loop's end, known once the loop closes. */
  breaks: number[];
}

const LOOPS: ReadonlySet<string> = new Set(['while', 'times', 'forEach']);

/**
 * Turns a test's commands into its block structure, checking that blocks nest as Selenium IDE
 * requires: `if` … `elseIf` … `else` … `end`; `while`/`times`/`forEach` … `end`; `do` …
 * `repeatIf`; `break` inside a loop. Every problem is reported at the command to fix, and the
 * builder goes on after each, so one run of `multiauth validate` shows them all.
 *
 * @param names the commands' names, in order (a disabled `//if` is an ordinary command)
 * @example
 * buildFlow(['while', 'click', 'end']).steps;
 * // [{ kind: 'loop', command: 'while', exit: 3 }, { kind: 'command' }, { kind: 'end', loop: 0 }]
 * buildFlow(['end']).issues;
 * // [{ index: 0, message: 'end closes no block: no if, while, times or forEach is open' }]
 */
export function buildFlow(names: readonly string[]): Flow {
  const steps: FlowStep[] = names.map(() => ({ kind: 'command' }));
  const issues: FlowIssue[] = [];
  const open: Block[] = [];
  const issue = (index: number, message: string): void => {
    issues.push({ index, message });
  };
  const closeLoop = (block: Block, exit: number): void => {
    for (const at of block.breaks) steps[at] = { kind: 'break', loop: block.at, exit };
  };

  for (const [i, raw] of names.entries()) {
    const name = raw.trim();
    if (!isFlowCommand(name)) continue;
    const top = open.at(-1);
    switch (name) {
      case 'if':
        open.push({ kind: 'if', at: i, clauses: [i], breaks: [] });
        steps[i] = { kind: 'if', next: -1 };
        break;
      case 'elseIf':
      case 'else': {
        if (top?.kind !== 'if') {
          issue(i, `${name} outside an if block${top ? ` (the innermost open block is the ${top.kind} of command ${top.at + 1})` : ''}`);
          break;
        }
        if (top.elseAt !== undefined) {
          issue(i, name === 'else'
            ? `a second else in the if block of command ${top.at + 1} (the first is command ${top.elseAt + 1})`
            : `elseIf after the else of command ${top.elseAt + 1}: an elseIf comes before the else`);
          break;
        }
        pointNext(steps, top.clauses.at(-1) ?? top.at, i);
        top.clauses.push(i);
        if (name === 'else') top.elseAt = i;
        steps[i] = name === 'else' ? { kind: 'else', end: -1 } : { kind: 'elseIf', next: -1, end: -1 };
        break;
      }
      case 'while':
      case 'times':
      case 'forEach':
        open.push({ kind: name, at: i, clauses: [], breaks: [] });
        steps[i] = { kind: 'loop', command: name, exit: -1 };
        break;
      case 'do':
        open.push({ kind: 'do', at: i, clauses: [], breaks: [] });
        steps[i] = { kind: 'do' };
        break;
      case 'end': {
        if (!top) {
          issue(i, 'end closes no block: no if, while, times or forEach is open');
          break;
        }
        open.pop();
        if (top.kind === 'do') {
          issue(i, `end cannot close the do of command ${top.at + 1}: a do block ends with repeatIf`);
        } else if (top.kind === 'if') {
          for (const clause of top.clauses) {
            pointNext(steps, clause, i);
            const step = steps[clause];
            if (step?.kind === 'elseIf' || step?.kind === 'else') step.end = i;
          }
          steps[i] = { kind: 'end' };
        } else {
          steps[top.at] = { kind: 'loop', command: top.kind, exit: i + 1 };
          closeLoop(top, i + 1);
          steps[i] = { kind: 'end', loop: top.at };
        }
        break;
      }
      case 'repeatIf': {
        const doAt = open.findLastIndex((block) => block.kind === 'do');
        if (doAt < 0) {
          issue(i, 'repeatIf without a do: a repeatIf closes the do block above it');
          break;
        }
        // Blocks opened inside the do and never closed: the fix is an end before this repeatIf.
        for (const block of open.splice(doAt + 1).reverse()) {
          issue(block.at, `the ${block.kind} block is not closed before the repeatIf of command ${i + 1}: add an end`);
        }
        const block = open.pop() as Block;
        closeLoop(block, i + 1);
        steps[i] = { kind: 'repeatIf', loop: block.at };
        break;
      }
      case 'break': {
        const loop = open.findLast((block) => block.kind !== 'if');
        if (!loop) {
          issue(i, 'break outside a loop: break leaves the innermost while, times, forEach or do');
          break;
        }
        loop.breaks.push(i);
        steps[i] = { kind: 'break', loop: loop.at, exit: -1 };
        break;
      }
    }
  }
  for (const block of open) {
    issue(block.at, `the ${block.kind} block is never closed: add ${block.kind === 'do' ? 'a repeatIf' : 'an end'}`);
  }
  issues.sort((a, b) => a.index - b.index);
  return { steps, issues };
}

/** Sends a failed `if`/`elseIf` (at `clause`) to the next clause or end (at `to`), unless it already goes somewhere. */
function pointNext(steps: FlowStep[], clause: number, to: number): void {
  const step = steps[clause];
  if ((step?.kind === 'if' || step?.kind === 'elseIf') && step.next < 0) step.next = to;
}
