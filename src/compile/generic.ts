import type { ConfigPath } from '../core/path.js';
import type { Operation, Procedure, User } from '../config/index.js';
import type { PlanBrowserOperation, PlanOperation, PlanProcedure, PlanUser } from './plan.js';
import { credentials, planExtractions, planInjections, requestTemplate, variablesRecord } from './normalize.js';
import { resolveRefresh, type RefreshRule } from './refresh.js';
import { planPasskey } from './passkey.js';

/**
 * A generic user (spec: User), normalised. Its refresh is resolved (see `resolveRefresh`): what
 * `refresh` leaves out (procedure, credentials, variables) is the user's own.
 *
 * @example
 * compileUser({ name: 'alice', procedure: 'login', credentials: { username: 'alice', password: 'pw' } }, 0);
 * // { name: 'alice', origin: ['users', 0], source: { kind: 'user' }, procedure: 'login',
 * //   credentials: { username: 'alice', password: 'pw', basic: 'none', headers: [], cookies: [], query: [] },
 * //   variables: {}, mtls: false }
 * compileUser({ name: 'bob', procedure: 'login', refresh: { keep: true } }, 1).refresh;
 * // { keep: true, procedure: 'login', credentials: <bob's>, variables: <bob's> }
 */
export function compileUser(user: User, index: number): PlanUser {
  const out: PlanUser = {
    name: user.name,
    origin: ['users', index],
    source: { kind: 'user' },
    credentials: credentials(user.credentials, user.procedure !== undefined && user.procedure !== null),
    variables: variablesRecord(user.variables),
    mtls: user.repeater_mtls ?? false,
  };
  if (user.procedure !== undefined && user.procedure !== null) out.procedure = user.procedure;
  if (user.passkey !== undefined) out.passkey = planPasskey(user.passkey, ['users', index, 'passkey']);
  if (user.refresh !== undefined) {
    const rule: RefreshRule = { keep: user.refresh.keep };
    if (user.refresh.procedure !== undefined) rule.procedure = user.refresh.procedure;
    if (user.refresh.sessionSeconds !== undefined) rule.sessionSeconds = user.refresh.sessionSeconds;
    // A refresh always runs a procedure: its credentials are template values only.
    if (user.refresh.credentials !== undefined) rule.credentials = credentials(user.refresh.credentials, true);
    if (user.refresh.variables !== undefined) rule.variables = variablesRecord(user.refresh.variables);
    out.refresh = resolveRefresh(rule, out);
  }
  return out;
}

/**
 * A procedure of the config's `procedures`, its operations normalised (`tech: selenium` becomes
 * `browser`).
 *
 * @example
 * compileProcedure({ name: 'login', operations: [{ tech: 'http', parameters: { url: 'https://x', method: 'POST',
 *   headers: [], cookies: [] }, extractions: [] }], injections: [] }, 0);
 * // { name: 'login', origin: ['procedures', 0], operations: [{ tech: 'http', request: {...}, ... }], injections: [] }
 */
export function compileProcedure(procedure: Procedure, index: number): PlanProcedure {
  const origin: ConfigPath = ['procedures', index];
  return {
    name: procedure.name,
    origin,
    operations: procedure.operations.map((operation, step) => compileOperation(operation, [...origin, 'operations', step])),
    injections: planInjections(procedure.injections, [...origin, 'injections']),
  };
}

/** How long a `tech: email` step waits for its mail when the config does not say (issue 37). */
export const DEFAULT_EMAIL_WAIT_SECONDS = 30;

function compileOperation(operation: Operation, origin: ConfigPath): PlanOperation {
  const extractions = planExtractions(operation.extractions, [...origin, 'extractions']);
  switch (operation.tech) {
    case 'http':
      return { tech: 'http', origin, request: requestTemplate(operation.parameters), extractions };
    case 'digest': {
      const { first_request: first, second_request: second } = operation.parameters;
      return {
        tech: 'digest',
        origin,
        first: requestTemplate(first),
        second: {
          ...(second?.url === undefined ? {} : { url: second.url }),
          ...(second?.method === undefined ? {} : { method: second.method }),
        },
        extractions,
      };
    }
    case 'email': {
      const { to, subject, from, wait_for_seconds: wait } = operation.parameters;
      return {
        tech: 'email', origin, to, waitForSeconds: wait ?? DEFAULT_EMAIL_WAIT_SECONDS, extractions,
        ...(subject === undefined ? {} : { subject }),
        ...(from === undefined ? {} : { from }),
      };
    }
    case 'browser':
    case 'selenium': {
      const { project, options } = operation.parameters;
      // The browser runtime locates commands under `origin.project`: point at the parameters.
      const out: PlanBrowserOperation = { tech: 'browser', origin: [...origin, 'parameters'], project, extractions };
      if (options.wait_for_seconds !== undefined) out.waitForSeconds = options.wait_for_seconds;
      if (options.proxy !== undefined) out.proxy = options.proxy;
      return out;
    }
  }
}
