import type { ConfigIssue } from '../core/errors.js';
import type { ConfigPath } from '../core/path.js';
import type { Plan, PlanUser } from './plan.js';

/**
 * Marks the users that need an unset environment variable (`LoadedConfig.missingEnv`): a reference
 * under a user (generic, or a preset's user) is that user's; one elsewhere in a preset is every
 * user of the preset's; one in a procedure is every user that signs in or refreshes with it; one
 * anywhere else (`proxy`, `mtls`, `scope`) is everyone's. Each marked user gets its issues in
 * `missingEnv`; the others sign in as usual. `plan` is changed in place and returned.
 *
 * @example
 * markMissingEnv(plan, loaded.missingEnv).users.filter((u) => u.missingEnv).map((u) => u.name); // ['carol']
 */
export function markMissingEnv(plan: Plan, issues: readonly ConfigIssue[]): Plan {
  for (const issue of issues) {
    for (const user of usersOf(plan, issue.path)) (user.missingEnv ??= []).push(issue);
  }
  return plan;
}

function usersOf(plan: Plan, path: ConfigPath): PlanUser[] {
  const [top, index, next, userIndex] = path;
  if (top === 'users' && typeof index === 'number') return plan.users.filter((u) => startsWith(u.origin, ['users', index]));
  if (top === 'presets' && typeof index === 'number') {
    if (next === 'users' && typeof userIndex === 'number') return plan.users.filter((u) => startsWith(u.origin, ['presets', index, 'users', userIndex]));
    return plan.users.filter((u) => startsWith(u.origin, ['presets', index]));
  }
  if (top === 'procedures' && typeof index === 'number') {
    const names = new Set(Object.values(plan.procedures).filter((p) => startsWith(p.origin, ['procedures', index])).map((p) => p.name));
    return plan.users.filter((u) => (u.procedure !== undefined && names.has(u.procedure)) || (u.refresh?.procedure !== undefined && names.has(u.refresh.procedure)));
  }
  return plan.users;
}

function startsWith(path: ConfigPath, prefix: ConfigPath): boolean {
  return prefix.every((part, i) => path[i] === part);
}
