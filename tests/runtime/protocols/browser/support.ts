import { test as base } from '@playwright/test';
import type { BrowserContext } from 'playwright-core';
import type { PlanBrowserOperation } from '../../../../src/compile/plan.js';
import type { BrowserCommand, BrowserTest } from '../../../../src/config/schema/index.js';
import { Redactor } from '../../../../src/core/redactor.js';
import type { BrowserBudgetLimits } from '../../../../src/runtime/protocols/browser/budget.js';
import { runBrowserStep, type BrowserStepResult } from '../../../../src/runtime/protocols/browser/run.js';
import { startBrowserPages, type BrowserPagesServer } from '../../../../fixtures/browser-pages/server.js';
import { watchReusedContext } from './reused-context.js';

/**
 * Playwright Test with the fixture pages served once per worker (`pages`), and Playwright's own
 * worker browser. The `context` (and its first page) is one per worker, reset between tests
 * (`reuseContext`, plus what {@link watchReusedContext} resets): a fresh page per test cost
 * about 400 ms of a renderer's start. A test that needs a context of its own makes one with
 * `browser.newContext()`.
 */
export const test = base.extend<object, { pages: BrowserPagesServer }>({
  reuseContext: [true, { scope: 'worker' }],
  context: async ({ context }, use) => {
    const cleanup = watchReusedContext(context);
    await use(context);
    await cleanup();
  },
  pages: [
    async ({}, use) => {
      const server = await startBrowserPages();
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],
});

export { expect } from '@playwright/test';

let counter = 0;

/**
 * One Selenium IDE command.
 *
 * @example
 * c('type', 'id=username', '{{username}}');
 */
export function c(command: string, target = '', value?: string, extra: Partial<BrowserCommand> = {}): BrowserCommand {
  counter += 1;
  return { id: `c${counter}`, command, target, ...(value === undefined ? {} : { value }), ...extra };
}

/** Config path the test operations pretend to come from. */
export const ORIGIN = ['procedures', 0, 'operations', 0, 'parameters'] as const;

/**
 * A compiled browser operation running `commands` as one test named "sign in" (or several tests).
 *
 * @example
 * op([c('open', `${pages.url}/form.html`)], { wait: 2 });
 */
export function op(
  commands: BrowserCommand[] | BrowserTest[],
  options: { url?: string; wait?: number } = {},
): PlanBrowserOperation {
  const tests: BrowserTest[] = isTests(commands) ? commands : [{ id: 't1', name: 'sign in', commands }];
  return {
    tech: 'browser',
    origin: [...ORIGIN],
    extractions: [],
    project: { tests, ...(options.url ? { url: options.url } : {}) },
    waitForSeconds: options.wait ?? 5,
  };
}

function isTests(items: BrowserCommand[] | BrowserTest[]): items is BrowserTest[] {
  return items.length > 0 && 'commands' in (items[0] as object);
}

/** Runs an operation for user alice, the given secrets registered with a Redactor. */
export async function run(
  context: BrowserContext,
  operation: PlanBrowserOperation,
  scope: Record<string, string> = {},
  options: { secrets?: string[]; screenshotDir?: string; log?: (line: string) => void; budget?: BrowserBudgetLimits } = {},
): Promise<BrowserStepResult> {
  const redactor = new Redactor().add(...(options.secrets ?? []));
  return runBrowserStep({
    op: operation,
    context,
    scope,
    where: { user: 'alice', procedure: 'login', step: 0 },
    redact: (text) => redactor.redact(text),
    screenshotDir: options.screenshotDir,
    log: options.log,
    budget: options.budget,
  });
}

/** Runs an operation and returns the error it throws (fails the test when it does not throw). */
export async function failure(...args: Parameters<typeof run>): Promise<Error & { code?: string; render?: () => string }> {
  try {
    await run(...args);
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected the browser step to fail');
}

/**
 * Seconds a command that is meant to fail is given (`failureAfterOpen(…, SHORT_WAIT)`): its message
 * states them ("still not after 0.5s", "within 0.5s"). Half a second: a failing command waits out
 * its whole time, and the page it reads is loaded already.
 */
export const SHORT_WAIT = 0.5;

/**
 * Opens `url` in a step of its own (with the default time), then runs `commands` with `wait`
 * seconds per command and returns the error they throw: short timeouts for the commands under
 * test without making page loads flaky on a busy machine.
 */
export async function failureAfterOpen(
  context: BrowserContext,
  url: string,
  commands: BrowserCommand[],
  wait: number,
  scope: Record<string, string> = {},
  options: { secrets?: string[]; screenshotDir?: string } = {},
): Promise<Error & { code?: string; render?: () => string }> {
  await run(context, op([c('open', url)]));
  return failure(context, op(commands, { wait }), scope, options);
}
