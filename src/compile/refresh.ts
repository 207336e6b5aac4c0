import type { PlanRefresh, PlanUser } from './plan.js';

/**
 * A refresh as the config (`users[].refresh`) or a preset states it: what it leaves out is the
 * user's own.
 */
export type RefreshRule = Omit<PlanRefresh, 'procedure' | 'credentials' | 'variables'> &
  Partial<Pick<PlanRefresh, 'procedure' | 'credentials' | 'variables'>>;

/**
 * The user's refresh with every default resolved, once, at compile time: a refresh runs the
 * rule's procedure with the rule's credentials and variables, and the user's own where the rule
 * gives none. The runtime then has no defaults of its own to apply.
 *
 * @example
 * resolveRefresh({ keep: true }, user);
 * // { keep: true, procedure: user.procedure, credentials: user.credentials, variables: user.variables }
 */
export function resolveRefresh(rule: RefreshRule, user: Pick<PlanUser, 'procedure' | 'credentials' | 'variables'>): PlanRefresh {
  const refresh: PlanRefresh = { ...rule, credentials: rule.credentials ?? user.credentials, variables: rule.variables ?? user.variables };
  const procedure = rule.procedure ?? user.procedure;
  if (procedure !== undefined) refresh.procedure = procedure;
  return refresh;
}
