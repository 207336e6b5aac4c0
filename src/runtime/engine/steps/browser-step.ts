import type { BrowserContext, BrowserContextOptions } from 'playwright-core';
import type { PlanBrowserOperation } from '../../../compile/index.js';
import { MultiAuthError } from '../../../core/errors.js';
import { browserStartUrl, freshContextOptions, prepareContext, runBrowserStep } from '../../protocols/browser/index.js';
import type { StepContext, StepResult } from './step.js';
import type { Observation } from '../../http/observation.js';
import { startPasskey } from './passkey-step.js';

/**
 * What browser steps run in: anything that opens a fresh context. Inside Playwright Test it is the
 * worker's browser; from the CLI, a browser launched from `--browser-path`.
 */
export interface BrowserHandle {
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
}

/**
 * Runs a `browser` operation (a recorded Selenium IDE project) in a new context, closed afterwards:
 * the user's headers and cookies are set first (and the user's passkey seeded), the commands run,
 * and what the page sent, received and stored becomes the step's observation, variables and
 * storage (and the passkey's counter, or the passkey the page registered, `ctx.passkey`).
 *
 * @example
 * const { observation, variables, origins } = await runBrowserOperation(op, { ...ctx, browser });
 */
export async function runBrowserOperation(op: PlanBrowserOperation, ctx: StepContext): Promise<StepResult> {
  const handle = ctx.browser as BrowserHandle | undefined;
  if (!handle || typeof handle.newContext !== 'function') {
    throw new MultiAuthError('AUTH_PROTOCOL', 'this sign-in runs a browser, and none was given', {
      context: { user: ctx.where.user, procedure: ctx.where.procedure, step: ctx.where.step, stepKind: 'browser' },
      hint: 'Run it inside Playwright Test, or pass --browser-path (or set MULTIAUTH_BROWSER_PATH) to multiauth login.',
    });
  }
  const proxy = op.proxy ?? ctx.plan.proxy;
  const context = await handle.newContext(freshContextOptions(proxy));
  let observed: Observation | undefined;
  try {
    await prepareContext(context, { headers: ctx.credentials.headers, cookies: ctx.credentials.cookies }, browserStartUrl(op, ctx.scope, ctx.where, ctx.redactor));
    const passkey = await startPasskey(context, ctx.user, ctx.passkey);
    const result = await runBrowserStep({
      op,
      context,
      scope: ctx.scope,
      where: ctx.where,
      redact: (text) => ctx.redactor.redact(text),
      ...(proxy ? { proxy } : {}),
      observed: (observation) => {
        observed = observation;
        ctx.observed?.(observation);
      },
      secrets: ctx.redactor,
    }).catch(async (error: unknown) => {
      throw await passkey.failed(error, observed);
    });
    await passkey.done();
    return { observation: result.observation, variables: result.variables, cookies: result.storage.cookies, origins: result.storage.origins };
  } finally {
    await context.close().catch(() => undefined);
  }
}
