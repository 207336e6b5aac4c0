import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from '@playwright/test';
import type { Plan } from '../../src/compile/plan.js';
import { Redactor } from '../../src/core/redactor.js';
import { authenticate } from '../../src/runtime/engine/authenticate.js';
import type { Session } from '../../src/runtime/session/session.js';
import { ROOT } from '../support/root.js';

export { test, expect } from '../support/demo.js';

/** The URL the examples sign in to (`npm run demo`'s demo server). */
const EXAMPLE_DEMO_URL = 'http://127.0.0.1:4010';

/**
 * The text of `examples/presets/webdriver.yaml`, pointed at a demo server the test started.
 *
 * @example
 * const plan = planFromYaml(webdriverExample(demo.url));
 */
export function webdriverExample(demoUrl: string): string {
  const text = readFileSync(join(ROOT, 'examples', 'presets', 'webdriver.yaml'), 'utf8');
  if (!text.includes(EXAMPLE_DEMO_URL)) throw new Error(`the webdriver example no longer targets ${EXAMPLE_DEMO_URL}`);
  return text.replaceAll(EXAMPLE_DEMO_URL, demoUrl);
}

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
