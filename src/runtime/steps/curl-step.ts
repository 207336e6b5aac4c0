import type { PlanCurlOperation, RequestTemplate } from '../../compile/plan.js';
import { checkCurlUrl, parseCurl } from '../curl/index.js';
import type { StepContext, StepResult } from './step.js';
import { sendTemplate } from './http-step.js';

/** A command is parsed once per process, however many users and refreshes run it. */
const parsed = new Map<string, RequestTemplate>();

/**
 * Runs a `curl` operation: the command is parsed by the sandboxed simulator (no shell, no files),
 * its strings are templated like any request, and the URL and proxy are checked again after
 * templating, since `{{auth_url}}` could only be judged once known.
 *
 * @example
 * const { observation } = await runCurlStep(op, ctx);
 */
export function runCurlStep(op: PlanCurlOperation, ctx: StepContext): Promise<StepResult> {
  let template = parsed.get(op.command);
  if (!template) {
    template = parseCurl(op.command);
    parsed.set(op.command, template);
  }
  return sendTemplate(template, ctx, {
    origin: op.origin,
    check: (wire) => {
      checkCurlUrl(wire.request.url);
      if (wire.proxy) checkCurlUrl(wire.proxy);
    },
  });
}
