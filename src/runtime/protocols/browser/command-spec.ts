import type { ArgSpec } from './args.js';
import type { BrowserRun, CommandInput } from './state.js';

/**
 * One row of the command table: what the command's `target` and `value` hold, and how it runs.
 * The same row drives `multiauth validate` (argument checks) and the run.
 */
export interface BrowserCommandSpec {
  /** One line for docs/browser.md. */
  summary: string;
  /** Absent = the command ignores that field. */
  args: { target?: ArgSpec; value?: ArgSpec };
  /**
   * Runs the command in the selected window and frame; throws StepFailure (or a Playwright error)
   * on failure. Control-flow commands that decide (`if`, `while`, `times`, …) resolve to their
   * decision: enter the block, or run the loop's body once more.
   */
  run(run: BrowserRun, cmd: CommandInput): Promise<boolean | void>;
}

/** A group of table rows (one file per concern). */
export type CommandRows = Readonly<Record<string, BrowserCommandSpec>>;
