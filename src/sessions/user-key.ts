import { createHash } from 'node:crypto';
import type { Plan, PlanProcedure, PlanUser } from '../compile/index.js';

/**
 * The cache key of one user's sessions: SHA-256 over everything that user's sign-in depends on, and
 * nothing else: the user as compiled (name, credentials, variables, refresh rule, validation,
 * reauth), the content of its sign-in and refresh procedures, and the plan's `proxy`, `lifetime`
 * and (when the user presents them) `mtls`. Editing another user, adding one, moving presets
 * around or renaming a procedure leaves the key alone; changing this user's password, its
 * procedure's URL or an extraction gives another key, so its cached session is not reused.
 *
 * Values are hashed, never stored; the key is 64 hex digits.
 *
 * @example
 * userCacheKey(plan, plan.users[0]!); // '9c1e…'
 */
export function userCacheKey(plan: Plan, user: PlanUser): string {
  const { origin: _origin, missingEnv: _missingEnv, source, procedure, refresh, ...rest } = user;
  const depends = {
    format: 1,
    user: {
      ...rest,
      // The kind of user, not where it stands in the file: moving a preset is no change to it.
      source: source.kind === 'preset' ? { kind: source.kind, type: source.type } : source,
      refresh: refresh && { ...refresh, procedure: undefined },
    },
    signIn: procedureContent(plan, procedure),
    refresh: procedureContent(plan, refresh?.procedure),
    proxy: plan.proxy,
    lifetime: plan.lifetime,
    mtls: user.mtls ? plan.mtls : [],
  };
  return createHash('sha256').update('multiauth-user-key\0').update(JSON.stringify(depends, withoutOrigins)).digest('hex');
}

/** A procedure as what it does: its name and where it is written are no part of that. */
function procedureContent(plan: Plan, name: string | undefined): Omit<PlanProcedure, 'name' | 'origin'> | undefined {
  if (name === undefined || !Object.hasOwn(plan.procedures, name)) return undefined;
  const { name: _name, origin: _origin, ...content } = plan.procedures[name] as PlanProcedure;
  return content;
}

/**
 * Drops the `origin` of every plan element (operations, extractions, injections, validation): a
 * config path (an array), which changes when something above it in the file is added or removed.
 */
function withoutOrigins(key: string, value: unknown): unknown {
  return key === 'origin' && Array.isArray(value) ? undefined : value;
}
