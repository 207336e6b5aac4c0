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

/**
 * The browser operation of a recorded login at oidc-provider's own pages (its development
 * interactions: login, then consent) that ends on the callback and extracts the code: the lines
 * under `operations:` of a procedure. `authorizeUrl` is the authorization request to open.
 */
export function oidcRecordedLogin(authorizeUrl: string): string {
  return `      - tech: browser
        parameters:
          options: { wait_for_seconds: 10 }
          project:
            tests:
              - id: t1
                name: sign in
                commands:
                  - { id: c1, command: open, target: "${authorizeUrl}" }
                  - { id: c2, command: type, target: "name=login", value: "{{username}}" }
                  - { id: c3, command: type, target: "name=password", value: "{{password}}" }
                  - { id: c4, command: click, target: "css=button[type=submit]" }
                  - { id: c5, command: click, target: "css=button[type=submit]" }
                  - { id: c6, command: wait, target: "request_url_contains=/cb?", value: "10" }
        extractions:
          - { name: code, location: query, key: code }`;
}
