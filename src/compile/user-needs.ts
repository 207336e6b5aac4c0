import type { Plan, PlanUser } from './plan.js';

/** The procedures a user's sign-in and refresh run. */
function proceduresOf(plan: Plan, user: PlanUser) {
  const names = [user.procedure, user.refresh?.procedure].filter((n): n is string => n !== undefined);
  return names.map((name) => plan.procedures[name]);
}

/**
 * Whether signing the user in (or refreshing) runs a browser step: only then is a browser launched.
 *
 * @example
 * if (plan.users.some((user) => usesBrowser(plan, user))) ...
 */
export function usesBrowser(plan: Plan, user: PlanUser): boolean {
  return proceduresOf(plan, user).some((procedure) => procedure?.operations.some((op) => op.tech === 'browser'));
}

/**
 * Whether the user signs in (and refreshes) with HTTP requests alone: no browser, no mail to wait
 * for, no passkey. Such a sign-in can run in any process, before the tests' browsers and mail
 * readers exist (the runner's sign-in ahead).
 *
 * @example
 * plan.users.filter((user) => signsInOverHttp(plan, user)).map((user) => user.name); // ['api-1', 'api-2']
 */
export function signsInOverHttp(plan: Plan, user: PlanUser): boolean {
  return signsInWithOnly(plan, user, HTTP_TECHS);
}

/**
 * Whether the user signs in (and refreshes) with browser steps and HTTP requests alone: at least one
 * browser step, no mail to wait for, no passkey. Such a sign-in can run in any process that can
 * start the project's browser (the runner's sign-in ahead, for a config it can read).
 *
 * @example
 * plan.users.filter((user) => signsInOnPages(plan, user)).map((user) => user.name); // ['web-1']
 */
export function signsInOnPages(plan: Plan, user: PlanUser): boolean {
  return usesBrowser(plan, user) && signsInWithOnly(plan, user, PAGE_TECHS);
}

const HTTP_TECHS: ReadonlySet<string> = new Set(['http', 'digest']);
const PAGE_TECHS: ReadonlySet<string> = new Set([...HTTP_TECHS, 'browser']);

/** A user with a procedure and no passkey, whose sign-in and refresh run operations of `techs` alone. */
function signsInWithOnly(plan: Plan, user: PlanUser, techs: ReadonlySet<string>): boolean {
  if (user.passkey !== undefined || user.procedure === undefined) return false;
  return proceduresOf(plan, user).every((procedure) => procedure !== undefined && procedure.operations.every((op) => techs.has(op.tech)));
}
