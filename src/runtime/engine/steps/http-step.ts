import type { PlanHttpOperation, RequestTemplate, ResponseDialect } from '../../../compile/plan.js';
import { checkDialectResponse, describeDialectError } from '../../protocols/dialects/index.js';
import { assertSuccessStatus } from '../../http/status-error.js';
import { sendRequest } from '../../http/transport.js';
import type { StepContext, StepResult } from './step.js';
import { buildWireRequest, type WireRequest } from './wire-request.js';

/**
 * Runs an `http` operation: builds the request from its template, the scope and the credentials,
 * sends it (following redirects with the sign-in's cookie jar), then judges the answer: the
 * protocol rules of the operation's dialect first (a GraphQL `errors` array, an OAuth error body),
 * then the status (400 or more fails, the body shown redacted).
 *
 * @example
 * const { observation } = await runHttpStep(op, ctx);
 */
export function runHttpStep(op: PlanHttpOperation, ctx: StepContext): Promise<StepResult> {
  return sendTemplate(op.request, ctx, { origin: op.origin, dialect: op.dialect });
}

/** How {@link sendTemplate} treats one request. */
export interface SendTemplateOptions {
  origin: PlanHttpOperation['origin'];
  dialect?: ResponseDialect;
  /** Checks the request after templating, before anything is sent (the curl sandbox's URL rules). */
  check?: (wire: WireRequest) => void;
}

/**
 * Builds, sends and judges one request template: the shared body of `http` and `curl` steps.
 *
 * @example
 * await sendTemplate(parseCurl(command), ctx, { origin, check: (w) => checkCurlUrl(w.request.url) });
 */
export async function sendTemplate(template: RequestTemplate, ctx: StepContext, options: SendTemplateOptions): Promise<StepResult> {
  const where = options.origin === ctx.where.path ? ctx.where : { ...ctx.where, path: options.origin };
  const wire = buildWireRequest(template, ctx.scope, ctx.credentials, where, ctx.plan.proxy);
  options.check?.(wire);
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
    retry: ctx.retry,
  });
  const context = { method: wire.request.method, url: wire.request.url };
  const { dialect } = options;
  if (dialect) checkDialectResponse(dialect, observation, context);
  assertSuccessStatus(observation, ctx.redactor, context, dialect && ((body) => describeDialectError(dialect, body)));
  return { observation };
}
