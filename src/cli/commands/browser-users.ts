import { usesBrowser, type Plan, type PlanUser } from '../../compile/index.js';
import { launchBrowserForCli } from '../../runtime/index.js';
import type { CliIo } from '../io.js';

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
