import { MultiAuthError } from '../../core/errors.js';
import type { PlanOperation } from '../../compile/plan.js';
import { runHttpStep } from './http-step.js';
import type { StepContext, StepResult, StepRunner } from './step.js';

type Runners = { [Tech in PlanOperation['tech']]: StepRunner<Extract<PlanOperation, { tech: Tech }>> };

/** How each kind of operation runs: one line per `tech`. */
const STEP_RUNNERS: Runners = {
  http: runHttpStep,
  digest: notSupportedYet('digest'),
  curl: notSupportedYet('curl'),
  browser: notSupportedYet('browser'),
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

function notSupportedYet(tech: string): StepRunner {
  return async () => {
    throw new MultiAuthError('AUTH_PROTOCOL', `"${tech}" operations are not supported by this build yet`, {
      hint: `Use an http operation instead, or update playwright-multiauth.`,
    });
  };
}
