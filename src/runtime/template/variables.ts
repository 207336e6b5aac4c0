import type { PlanCredentials } from '../../compile/index.js';
import type { TemplateScope } from './template.js';

/** What a run starts from: a sign-in the user's credentials and variables, a refresh its own (`PlanRefresh`). */
export interface InitialScopeOptions {
  /** Credentials of this run. */
  credentials: PlanCredentials;
  /** Declared variables of this run. */
  variables: Record<string, string>;
  /** Variables of the session being refreshed (`Session.variables`), so `{{refresh_token}}` works. */
  previous?: Record<string, string>;
}

/**
 * The variables a procedure sees when it starts (DESIGN.md "Templating"), later entries
 * overwriting earlier ones:
 * 1. the variables of the session being refreshed (`opts.previous`, refresh runs only);
 * 2. the declared variables (`opts.variables`);
 * 3. `username` and `password` from the credentials (`opts.credentials`), unless a declared
 *    variable has that name.
 *
 * Extracted values are added by the runner afterwards, in order, a later extraction overwriting.
 * The result is a fresh object; the inputs are not modified.
 *
 * @example
 * initialScope({ credentials: user.credentials, variables: user.variables }); // { tenant: 'acme', username: 'alice', password: '...' }
 * initialScope({ ...user.refresh, previous: session.variables });              // refresh: also { refresh_token: '...' }
 */
export function initialScope(opts: InitialScopeOptions): TemplateScope {
  const { credentials } = opts;
  const declared = opts.variables;
  const scope: TemplateScope = { ...(opts.previous ?? {}), ...declared };
  for (const name of ['username', 'password'] as const) {
    const value = credentials[name];
    if (value !== undefined && !Object.hasOwn(declared, name)) scope[name] = value;
  }
  return scope;
}
