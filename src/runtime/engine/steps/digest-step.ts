import type { PlanDigestOperation } from '../../../compile/index.js';
import { MultiAuthError } from '../../../core/errors.js';
import { runDigestStep } from '../../protocols/digest/index.js';
import { assertSuccessStatus } from '../../http/status-error.js';
import { sendRequest } from '../../http/transport.js';
import { emptyObservation } from '../../http/observation.js';
import type { StepContext, StepResult } from './step.js';
import { buildWireRequest } from './wire-request.js';

/**
 * Runs a `digest` operation (RFC 7616): the first request draws the challenge, the second (its URL
 * and method defaulting to the first's) answers it with the user's username and password. The
 * session keeps the digest state so later requests of the same protection space are answered.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7616#section-3.3
 * @example
 * const { observation, digest } = await runDigestOperation(op, ctx);
 */
export async function runDigestOperation(op: PlanDigestOperation, ctx: StepContext): Promise<StepResult> {
  const where = { ...ctx.where, path: op.origin };
  const username = ctx.credentials.username ?? ctx.scope.username;
  const password = ctx.credentials.password ?? ctx.scope.password;
  if (username === undefined || password === undefined) {
    throw new MultiAuthError('CONFIG_INVALID', 'a digest operation needs a username and a password', {
      context: { user: ctx.where.user, procedure: ctx.where.procedure, step: ctx.where.step, stepKind: 'digest' },
      hint: 'Give the user credentials: { username, password } (or variables named username and password).',
    });
  }
  const first = buildWireRequest(op.first, ctx.scope, ctx.credentials, where, ctx.plan.proxy, ctx.redactor);
  const secondTemplate = { ...op.first, url: op.second.url ?? op.first.url, method: op.second.method ?? op.first.method };
  const second = buildWireRequest(secondTemplate, ctx.scope, ctx.credentials, where, ctx.plan.proxy, ctx.redactor);
  // Each exchange is told as it happens: a challenge refused still shows its requests.
  const sofar = emptyObservation();
  ctx.observed?.(sofar);
  const send = async (request: Parameters<typeof sendRequest>[0]) => {
    const observed = await sendRequest(request, { ...first, jar: ctx.jar, clientCertificates: ctx.clientCertificates, retry: ctx.retry });
    sofar.requests.push(...observed.requests);
    sofar.responses.push(...observed.responses);
    sofar.urls.push(...observed.urls);
    return observed;
  };
  const { observation, state } = await runDigestStep({
    first: first.request,
    second: second.request,
    username,
    password,
    send,
    where: { user: ctx.where.user, procedure: ctx.where.procedure, step: ctx.where.step },
  });
  ctx.observed?.(observation);
  assertSuccessStatus(observation, ctx.redactor, { method: second.request.method, url: second.request.url });
  return { observation, digest: state };
}
