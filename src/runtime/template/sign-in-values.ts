import type { PlanProcedure } from '../../compile/index.js';
import { templateNames } from '../../core/template-names.js';
import { SIGN_IN_VALUE_NAMES } from '../../core/template-expr.js';

const uses = new WeakMap<PlanProcedure, boolean>();

/**
 * Whether a procedure reads `{{pkce_verifier}}`, `{{pkce_challenge}}`, `{{state}}` or `{{nonce}}`
 * (known once per procedure): only such a sign-in pays for making them.
 *
 * @example
 * if (usesSignInValues(procedure)) Object.assign(scope, signInValues());
 */
export function usesSignInValues(procedure: PlanProcedure): boolean {
  let answer = uses.get(procedure);
  if (answer === undefined) {
    const names = new Set(templateNames(procedure.operations, { selenium: true }));
    answer = SIGN_IN_VALUE_NAMES.some((name) => names.has(name));
    uses.set(procedure, answer);
  }
  return answer;
}
