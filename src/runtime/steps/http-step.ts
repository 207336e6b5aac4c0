import type { PlanHttpOperation } from '../../compile/plan.js';
import { checkDialectResponse, describeDialectError } from '../dialects/index.js';
import { assertSuccessStatus } from '../http/status-error.js';
import { sendRequest } from '../http/transport.js';
import type { StepContext, StepResult } from './step.js';
import { buildWireRequest } from './wire-request.js';

/**
 * Runs an `http` operation: builds the request from its template, the scope and the credentials,
 * sends it (following redirects with the sign-in's cookie jar), then judges the answer: the
 * protocol rules of the operation's dialect first (a GraphQL `errors` array, an OAuth error body),
 * then the status (400 or more fails, the body shown redacted).
 *
 * @example
 * const { observation } = await runHttpStep(op, ctx);
 */
export async function runHttpStep(op: PlanHttpOperation, ctx: StepContext): Promise<StepResult> {
  const wire = buildWireRequest(op.request, ctx.scope, ctx.credentials, { ...ctx.where, path: op.origin }, ctx.plan.proxy);
  const observation = await sendRequest(wire.request, { ...wire, jar: ctx.jar });
  const context = { method: wire.request.method, url: wire.request.url };
  const { dialect } = op;
  if (dialect) checkDialectResponse(dialect, observation, context);
  assertSuccessStatus(observation, ctx.redactor, context, dialect && ((body) => describeDialectError(dialect, body)));
  return { observation };
}
