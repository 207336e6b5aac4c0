import type { BrowserContext, BrowserContextOptions } from 'playwright-core';
import type { PlanBrowserOperation } from '../../../compile/index.js';
import { MultiAuthError } from '../../../core/errors.js';
import { browserStartUrl, freshContextOptions, prepareContext, runBrowserStep } from '../../protocols/browser/index.js';
import type { StepContext, StepResult } from './step.js';
import type { Observation } from '../../http/observation.js';
import { startPasskey } from './passkey-step.js';
import { closeBrowserSession, type BrowserSession } from './browser-session.js';

/**
 * What browser steps run in: anything that opens a fresh context. Inside Playwright Test it is the
 * worker's browser; from the CLI, a browser launched from `--browser-path`.
 */
export interface BrowserHandle {
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
}

/**
 * Runs a `browser` operation (a recorded Selenium IDE project). The sign-in's first browser step
 * opens a new context (the user's headers and cookies set first, the user's passkey seeded); a
 * later one continues in it, in the page the step before ended on (`ctx.browserSession`, closed
 * by the procedure; without one, the context is this step's alone and closed here). What the
 * page sent, received and stored becomes the step's observation, variables and storage (and the
 * passkey's counter, or the passkey the page registered, `ctx.passkey`).
 *
 * @example
 * const { observation, variables, origins } = await runBrowserOperation(op, { ...ctx, browser });
 */
export async function runBrowserOperation(op: PlanBrowserOperation, ctx: StepContext): Promise<StepResult> {
  const handle = ctx.browser as BrowserHandle | undefined;
  const session: BrowserSession = ctx.browserSession ?? {};
  if (!session.open && (!handle || typeof handle.newContext !== 'function')) {
    throw new MultiAuthError('AUTH_PROTOCOL', 'this sign-in runs a browser, and none was given', {
      context: { user: ctx.where.user, procedure: ctx.where.procedure, step: ctx.where.step, stepKind: 'browser' },
      hint: 'Run it inside Playwright Test, or pass --browser-path (or set MULTIAUTH_BROWSER_PATH) to multiauth login.',
    });
  }
  const proxy = op.proxy ?? ctx.plan.proxy;
  try {
    const open = session.open ?? (session.open = await openContext(handle as BrowserHandle, op, ctx, proxy));
    let observed: Observation | undefined;
    const result = await runBrowserStep({
      op,
      context: open.context,
      ...(open.page ? { page: open.page } : {}),
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
      throw await open.passkey.failed(error, observed);
    });
    if (result.page) open.page = result.page;
    else delete open.page;
    await open.passkey.done();
    return { observation: result.observation, variables: result.variables, cookies: result.storage.cookies, origins: result.storage.origins };
  } finally {
    if (!ctx.browserSession) await closeBrowserSession(session);
  }
}

/** The sign-in's context: new, with the user's headers, cookies and passkey. */
async function openContext(handle: BrowserHandle, op: PlanBrowserOperation, ctx: StepContext, proxy: string | undefined): Promise<NonNullable<BrowserSession['open']>> {
  const context = await handle.newContext(freshContextOptions(proxy));
  try {
    await prepareContext(context, { headers: ctx.credentials.headers, cookies: ctx.credentials.cookies }, browserStartUrl(op, ctx.scope, ctx.where, ctx.redactor));
    return { context, passkey: await startPasskey(context, ctx.user, ctx.passkey) };
  } catch (error) {
    await context.close().catch(() => undefined);
    throw error;
  }
}
