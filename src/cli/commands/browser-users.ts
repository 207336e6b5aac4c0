import type { Plan, PlanUser } from '../../compile/index.js';
import { launchBrowserForCli } from '../../runtime/index.js';
import type { CliIo } from '../io.js';

/**
 * Whether signing the user in (or refreshing) runs a browser step: only then is a browser launched.
 *
 * @example
 * if (plan.users.some((user) => usesBrowser(plan, user))) ...
 */
export function usesBrowser(plan: Plan, user: PlanUser): boolean {
  const names = [user.procedure, user.refresh?.procedure].filter((n): n is string => n !== undefined);
  return names.some((name) => plan.procedures[name]?.operations.some((op) => op.tech === 'browser'));
}

/**
 * A headless browser for the commands that sign users in, launched only when one of `users` needs
 * it (playwright-core loads only then): `--browser-path`, else discovery (see `launchBrowserForCli`).
 *
 * @example
 * const browser = await browserFor(plan, [user], values['browser-path'] as string | undefined, io);
 * try { ... } finally { await browser?.close(); }
 */
export async function browserFor(
  plan: Plan,
  users: readonly PlanUser[],
  browserPath: string | undefined,
  io: CliIo,
): Promise<Awaited<ReturnType<typeof launchBrowserForCli>> | undefined> {
  if (!users.some((user) => usesBrowser(plan, user))) return undefined;
  return launchBrowserForCli({ browserPath, env: io.env, proxy: plan.proxy });
}
