import type { ConfigIssue } from '../core/errors.js';
import type { Plan, PlanProcedure } from './plan.js';
import { SIGN_IN_VALUE_NAMES } from '../core/template-expr.js';
import { checkWebAuthnUsers } from './webauthn-check.js';
import { declaredVariables, producedBy, producedByProcedure, usedBy } from './variables-in-plan.js';

const SIGN_IN_VALUES: ReadonlySet<string> = new Set(SIGN_IN_VALUE_NAMES);

/** One way a procedure is run: by whom, and which variables that run starts with. */
interface ProcedureRun {
  user: string;
  variables: Set<string>;
}

/**
 * Checks a compiled Plan for variables that cannot work, before anything is sent. Issues carry the
 * `origin` of the element as `path` and no location (the caller locates them).
 *
 * - error: an injection reads a variable that its procedure never extracts (nor a browser `store*`
 *   command stores) and that no run of the procedure starts with; or an injection without
 *   `variable` in a procedure that extracts nothing.
 * - warning: a `{{name}}` (or `${name}` in a browser command) that is provably never defined: not
 *   declared for any user that runs the procedure (variables, or username/password from
 *   credentials), not extracted by an earlier operation, and, for refresh runs, not a variable of the
 *   sign-in being refreshed. Procedures that no user runs are not checked for this.
 * - warning: a user without `passkey` runs a procedure that calls `webauthn_assertion()`.
 *
 * @example
 * checkPlan(compile(config));
 * // [{ severity: 'error', path: ['procedures', 0, 'injections', 0],
 * //    message: 'injection reads variable "acces_token", which procedure "login" never extracts', hint: '...' }]
 */
export function checkPlan(plan: Plan): ConfigIssue[] {
  const runs = procedureRuns(plan);
  return Object.values(plan.procedures).flatMap((procedure) => [
    ...checkTemplates(procedure, runs.get(procedure.name) ?? []),
    ...checkInjections(procedure, runs.get(procedure.name) ?? []),
  ]).concat(checkWebAuthnUsers(plan));
}

function procedureRuns(plan: Plan): Map<string, ProcedureRun[]> {
  const runs = new Map<string, ProcedureRun[]>();
  const add = (procedure: string, run: ProcedureRun) => runs.set(procedure, [...(runs.get(procedure) ?? []), run]);
  for (const user of plan.users) {
    const signIn = new Set(declaredVariables(user.variables, user.credentials));
    // The runtime gives a passkey user's sign-in its credential id (empty before one is registered).
    if (user.passkey) signIn.add('passkey_id');
    if (user.procedure !== undefined) add(user.procedure, { user: user.name, variables: signIn });
    const refreshProcedure = user.refresh?.procedure;
    if (user.refresh && refreshProcedure !== undefined) {
      const signInProcedure = user.procedure === undefined ? undefined : plan.procedures[user.procedure];
      const variables = new Set([
        ...signIn,
        ...(signInProcedure ? producedByProcedure(signInProcedure) : []),
        ...declaredVariables(user.refresh.variables, user.refresh.credentials),
      ]);
      add(refreshProcedure, { user: user.name, variables });
    }
  }
  return runs;
}

function checkTemplates(procedure: PlanProcedure, runs: ProcedureRun[]): ConfigIssue[] {
  if (runs.length === 0) return [];
  const issues: ConfigIssue[] = [];
  const extracted = new Set<string>();
  for (const operation of procedure.operations) {
    const reported = new Set<string>();
    for (const { name, definedBefore } of usedBy(operation)) {
      const defined = SIGN_IN_VALUES.has(name) || extracted.has(name) || definedBefore.includes(name) || runs.some((run) => run.variables.has(name));
      if (defined || reported.has(name)) continue;
      reported.add(name);
      issues.push({
        severity: 'warning',
        path: operation.origin,
        message: `{{${name}}} is never defined: no user of procedure "${procedure.name}" (${userList(runs)}) declares it and no earlier operation extracts it`,
        hint: `Declare "${name}" in the users' variables, extract it in an earlier operation, or fix the spelling.`,
      });
    }
    for (const name of producedBy(operation)) extracted.add(name);
  }
  return issues;
}

function checkInjections(procedure: PlanProcedure, runs: ProcedureRun[]): ConfigIssue[] {
  const produced = producedByProcedure(procedure);
  const hasExtraction = procedure.operations.some((operation) => operation.extractions.length > 0);
  const issues: ConfigIssue[] = [];
  for (const injection of procedure.injections) {
    if (injection.variable === undefined) {
      if (!hasExtraction) {
        issues.push({
          severity: 'error',
          path: injection.origin,
          message: `injection has no "variable" and procedure "${procedure.name}" extracts nothing`,
          hint: 'Without "variable", an injection sends the first value the procedure extracts: add an extraction, or name the variable to inject.',
        });
      }
      continue;
    }
    const name = injection.variable;
    if (produced.includes(name) || runs.some((run) => run.variables.has(name))) continue;
    const known = [...new Set(produced)];
    issues.push({
      severity: 'error',
      path: injection.origin,
      message: `injection reads variable "${name}", which procedure "${procedure.name}" never extracts`,
      hint: known.length
        ? `Extracted by the procedure: ${known.join(', ')}. Fix the spelling or add an extraction named "${name}".`
        : `The procedure extracts nothing: add an extraction named "${name}" to one of its operations.`,
    });
  }
  return issues;
}

function userList(runs: ProcedureRun[]): string {
  const names = [...new Set(runs.map((run) => run.user))];
  return names.length > 3 ? `${names.slice(0, 3).join(', ')}, ...` : names.join(', ');
}
