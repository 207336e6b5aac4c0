import { BROWSER_BUDGET } from './control-flow.js';
import { StepFailure } from './failure.js';

/** Bounds a {@link BrowserBudget} enforces (tests use small ones). */
export interface BrowserBudgetLimits {
  rounds: number;
  seconds: number;
}

/**
 * What one browser operation may still spend: rounds of its commands and wall time. Spending
 * waits for the event loop now and then, so a signal handler, Playwright's test timeout and
 * every timer get to run during a loop that never touches the page.
 *
 * @example
 * const budget = new BrowserBudget();
 * for (const command of commands) {
 *   await budget.spend(); // throws StepFailure 'budget' once a bound is passed
 *   await run(command);
 * }
 */
export class BrowserBudget {
  private rounds = 0;
  private readonly deadline: number;

  constructor(readonly limits: BrowserBudgetLimits = BROWSER_BUDGET) {
    this.deadline = Date.now() + limits.seconds * 1000;
  }

  /**
   * Counts one round, then fails when a bound is passed.
   *
   * @throws StepFailure `budget` once more than `limits.rounds` rounds were spent or the time is up.
   */
  async spend(): Promise<void> {
    this.rounds += 1;
    if (this.rounds % BROWSER_BUDGET.yieldEvery === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    if (this.rounds > this.limits.rounds) {
      throw new StepFailure('budget', `the browser operation ran ${this.limits.rounds} commands and loop rounds and would run more ` +
        `(the limit is ${this.limits.rounds} for all its tests and loops together)`);
    }
    if (this.timeUp()) throw this.timeFailure();
  }

  /** Milliseconds left (0 once the time is up). */
  msLeft(): number {
    return Math.max(0, this.deadline - Date.now());
  }

  /** Whether the wall time is spent. */
  timeUp(): boolean {
    return Date.now() >= this.deadline;
  }

  /** The failure of an operation that ran out of time (a command cut short by it fails with this). */
  timeFailure(): StepFailure {
    return new StepFailure('budget', `the browser operation has run for ${this.limits.seconds}s (the limit is ${this.limits.seconds}s for all its tests together)`);
  }
}
