import type { ConfigIssue } from '../core/errors.js';
import type { ConfigPath } from '../core/path.js';
import { callsFunction, parsedTemplate, scanTemplate, TemplateSyntaxError } from '../core/template-expr.js';
import type { Plan, PlanOperation } from './plan.js';

const FUNCTION = 'webauthn_assertion';

/**
 * A warning per user that runs a procedure calling `webauthn_assertion()` (sign-in or refresh)
 * and has no `passkey`: its sign-in would fail at that step, so `validate` says so first.
 *
 * @example
 * checkWebAuthnUsers(plan);
 * // [{ severity: 'warning', path: ['procedures', 0, 'operations', 1],
 * //    message: 'user "bob" runs procedure "passkey", whose {{ webauthn_assertion() }} signs with the user\'s passkey; bob has none', hint: '...' }]
 */
export function checkWebAuthnUsers(plan: Plan): ConfigIssue[] {
  const calling = new Map<string, ConfigPath>();
  for (const procedure of Object.values(plan.procedures)) {
    const op = procedure.operations.find(callsWebAuthn);
    if (op) calling.set(procedure.name, op.origin);
  }
  if (calling.size === 0) return [];
  const issues: ConfigIssue[] = [];
  for (const user of plan.users) {
    if (user.passkey) continue;
    for (const name of new Set([user.procedure, user.refresh?.procedure])) {
      const at = name === undefined ? undefined : calling.get(name);
      if (at === undefined) continue;
      issues.push({
        severity: 'warning',
        path: at,
        message: `user "${user.name}" runs procedure "${name}", whose {{ ${FUNCTION}() }} signs with the user's passkey; ${user.name} has none`,
        hint: `Give "${user.name}" a passkey: {rp_id, id, user_handle, private_key, public_key} (multiauth passkey new makes one), see docs/passkeys.md.`,
      });
    }
  }
  return issues;
}

/** Whether a string of the operation calls the function (walked without recursion: configs are untrusted). */
function callsWebAuthn(op: PlanOperation): boolean {
  const stack: unknown[] = [op.tech === 'browser' ? op.project : op.tech === 'http' ? op.request : op.tech === 'email' ? op.to : [op.first, op.second]];
  while (stack.length) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (value.includes(`${FUNCTION}(`) && scanTemplate(value).blocks.some((block) => callsIn(block.source))) return true;
    } else if (Array.isArray(value)) stack.push(...value);
    else if (value !== null && typeof value === 'object') stack.push(...Object.values(value));
  }
  return false;
}

function callsIn(source: string): boolean {
  try {
    return callsFunction(parsedTemplate(source), FUNCTION);
  } catch (error) {
    // checkTemplateSyntax reports it.
    if (error instanceof TemplateSyntaxError) return false;
    throw error;
  }
}
