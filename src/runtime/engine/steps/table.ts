import type { PlanOperation } from '../../../compile/index.js';
import { runHttpStep } from './http-step.js';
import { runDigestOperation } from './digest-step.js';
import { runBrowserOperation } from './browser-step.js';
import { runEmailOperation } from './email-step.js';
import type { StepContext, StepResult, StepRunner } from './step.js';

type Runners = { [Tech in PlanOperation['tech']]: StepRunner<Extract<PlanOperation, { tech: Tech }>> };

/** How each kind of operation runs: one line per `tech`. */
const STEP_RUNNERS: Runners = {
  http: runHttpStep,
  digest: runDigestOperation,
  browser: runBrowserOperation,
  email: runEmailOperation,
};

/**
 * Runs one operation with the runner of its `tech`.
 *
 * @example
 * const { observation } = await runStep(procedure.operations[0], ctx);
 */
export function runStep(op: PlanOperation, ctx: StepContext): Promise<StepResult> {
  return (STEP_RUNNERS[op.tech] as StepRunner)(op, ctx);
}
