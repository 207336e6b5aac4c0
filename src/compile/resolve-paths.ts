import { isAbsolute, resolve } from 'node:path';
import type { Plan } from './plan.js';

/**
 * The plan with its file paths (the `mtls` certificates) made absolute against the config file's
 * folder, where the user wrote them relative to. Pure: it reads nothing.
 *
 * @example
 * resolvePlanPaths(plan, '/repo/e2e').mtls[0]?.certPath; // '/repo/e2e/certs/alice.crt'
 */
export function resolvePlanPaths(plan: Plan, configDir: string): Plan {
  if (plan.mtls.length === 0) return plan;
  const abs = (p: string | undefined): string | undefined => (p === undefined || isAbsolute(p) ? p : resolve(configDir, p));
  return {
    ...plan,
    mtls: plan.mtls.map((c) => ({ ...c, certPath: abs(c.certPath), keyPath: abs(c.keyPath), pfxPath: abs(c.pfxPath) })),
  };
}
