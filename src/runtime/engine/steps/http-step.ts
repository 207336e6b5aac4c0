import { awaitFreshTotp } from '../../template/template.js';
import type { PlanHttpOperation } from '../../../compile/index.js';
import { checkDialectResponse, describeDialectError } from '../../protocols/dialects/index.js';
import { assertSuccessStatus } from '../../http/status-error.js';
import { sendRequest } from '../../http/transport.js';
import type { RetryPolicy } from '../../http/retry.js';
import { checkCurlWire, withCurlCommand } from './from-curl.js';
import type { StepContext, StepResult } from './step.js';
import { buildWireRequest } from './wire-request.js';

/** The retry policy of a single-use request: none. */
const SEND_ONCE: RetryPolicy = Object.freeze({ retries: 0, baseDelayMs: 0, maxTotalWaitMs: 0 });

/**
 * Runs an `http` operation: builds the request from its template, the scope and the credentials,
 * sends it (following redirects with the sign-in's cookie jar), then judges the answer: the
 * protocol rules of the operation's dialect first (a GraphQL `errors` array, an OAuth error body),
 * then the status (400 or more fails unless `accept_status` lists it, the body shown redacted). An operation compiled from a curl
 * command also keeps the sandbox's URL rules after templating, and its errors show the command.
 *
 * @example
 * const { observation } = await runHttpStep(op, ctx);
 */
export function runHttpStep(op: PlanHttpOperation, ctx: StepContext): Promise<StepResult> {
  const { source } = op;
  if (source === undefined) return sendOperation(op, ctx);
  return sendOperation(op, ctx).catch((error: unknown) => {
    throw withCurlCommand(error, source, op.origin, ctx.redactor);
  });
}

async function sendOperation(op: PlanHttpOperation, ctx: StepContext): Promise<StepResult> {
  const where = op.origin === ctx.where.path ? ctx.where : { ...ctx.where, path: op.origin };
  const fresh = awaitFreshTotp(op.request, ctx.scope);
  if (fresh) await fresh;
  const wire = buildWireRequest(op.request, ctx.scope, ctx.credentials, where, ctx.plan.proxy, ctx.redactor);
  if (op.source) checkCurlWire(wire);
  // An Authorization built here (Basic from credentials or curl -u) is as secret as its parts.
  for (const [name, value] of wire.request.headers) {
    if (name.toLowerCase() === 'authorization') ctx.redactor.add(value, value.replace(/^\S+\s+/, ''));
  }
  const observation = await sendRequest(wire.request, {
    timeoutMs: wire.timeoutMs,
    followRedirects: wire.followRedirects,
    insecure: wire.insecure,
    proxy: wire.proxy,
    jar: ctx.jar,
    clientCertificates: ctx.clientCertificates,
    // A magic link or a code works once: a retry of a request that may have reached the server would spend it.
    retry: op.singleUse ? SEND_ONCE : ctx.retry,
  });
  ctx.observed?.(observation);
  const context = { method: wire.request.method, url: wire.request.url };
  const { dialect } = op;
  if (dialect) checkDialectResponse(dialect, observation, context);
  if (!op.request.acceptStatus?.includes(observation.responses.at(-1)?.status ?? 0)) {
    assertSuccessStatus(observation, ctx.redactor, context, dialect && ((body) => describeDialectError(dialect, body)));
  }
  return { observation };
}
