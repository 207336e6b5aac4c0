import type { Browser } from '@playwright/test';
import type { Plan } from '../../src/compile/plan.js';
import { Redactor } from '../../src/core/redactor.js';
import { authenticate } from '../../src/runtime/engine/authenticate.js';
import type { Session } from '../../src/runtime/session/session.js';

export { test, expect } from '../support/demo.js';

/**
 * Signs a user in with the test's browser, as the fixtures do: loadConfig -> compile -> authenticate.
 * Returns the session and the redactor that knows the run's secrets.
 *
 * @example
 * const { session } = await signIn(plan, 'alice', browser);
 */
export async function signIn(plan: Plan, user: string, browser: Browser): Promise<{ session: Session; redactor: Redactor }> {
  const redactor = new Redactor();
  const session = await authenticate(plan, user, { redactor, browser });
  return { session, redactor };
}
