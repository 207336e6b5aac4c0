import type { PlanCredentials, PlanUser } from '../../compile/plan.js';
import type { TemplateScope } from './template.js';

/** What a run starts from besides the user: a refresh passes its own credentials and variables. */
export interface InitialScopeOptions {
  /** Credentials of this run; default the user's (a refresh may have its own). */
  credentials?: PlanCredentials;
  /** Declared variables of this run; default the user's (a refresh may have its own). */
  variables?: Record<string, string>;
  /** Variables of the session being refreshed (`Session.variables`), so `{{refresh_token}}` works. */
  previous?: Record<string, string>;
}

/**
 * The variables a procedure sees when it starts (DESIGN.md "Templating"), later entries
 * overwriting earlier ones:
 * 1. the variables of the session being refreshed (`opts.previous`, refresh runs only);
 * 2. the declared variables (`opts.variables`, default `user.variables`);
 * 3. `username` and `password` from the credentials (`opts.credentials`, default
 *    `user.credentials`), unless a declared variable has that name.
 *
 * Extracted values are added by the runner afterwards, in order, a later extraction overwriting.
 * The result is a fresh object; the inputs are not modified.
 *
 * @example
 * initialScope(user);                                    // { tenant: 'acme', username: 'alice', password: '...' }
 * initialScope(user, { previous: session.variables });   // refresh: also { refresh_token: '...' }
 */
export function initialScope(user: PlanUser, opts: InitialScopeOptions = {}): TemplateScope {
  const credentials = opts.credentials ?? user.credentials;
  const declared = opts.variables ?? user.variables;
  const scope: TemplateScope = { ...(opts.previous ?? {}), ...declared };
  for (const name of ['username', 'password'] as const) {
    const value = credentials[name];
    if (value !== undefined && !Object.hasOwn(declared, name)) scope[name] = value;
  }
  return scope;
}
