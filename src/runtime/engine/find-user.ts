import { ConfigInvalidError, MultiAuthError } from '../../core/errors.js';
import { didYouMean } from '../../core/suggest.js';
import type { Plan, PlanUser } from '../../compile/index.js';

// Apart from authenticate.ts, which loads the transport: the CLI looks users up before it signs in.

/**
 * The user of that name, or `USER_UNKNOWN` listing the closest name and how many users there are.
 *
 * @example
 * findPlanUser(plan, 'alice').procedure; // 'login'
 */
export function findPlanUser(plan: Plan, userName: string): PlanUser {
  const user = usersByName(plan).get(userName);
  if (user) return user;
  const names = plan.users.map((candidate) => candidate.name);
  throw new MultiAuthError('USER_UNKNOWN', `no user named "${userName}"${didYouMean(userName, names)}`, {
    details: [`users: ${names.length ? names.join(', ') : '(none)'}`],
    hint: 'Use a name from the config\'s users or preset users (`multiauth users` lists them).',
  });
}

/**
 * The user of that name, ready to sign in: {@link findPlanUser}, and refused when its part of the
 * config needs an environment variable that is not set (the other users still sign in).
 *
 * @throws MultiAuthError `USER_UNKNOWN`; ConfigInvalidError `CONFIG_ENV_MISSING` with the located
 *   references to the unset variables.
 * @example
 * usablePlanUser(plan, 'alice').credentials;
 */
export function usablePlanUser(plan: Plan, userName: string): PlanUser {
  const user = findPlanUser(plan, userName);
  if (!user.missingEnv?.length) return user;
  const file = user.missingEnv[0]?.location?.file ?? 'the config';
  throw new ConfigInvalidError(file, user.missingEnv, 'CONFIG_ENV_MISSING');
}

const userIndexes = new WeakMap<Plan, { users: PlanUser[]; length: number; byName: Map<string, PlanUser> }>();

/** The plan's users by name (the first of a name wins, as with `find`), indexed once: plans have hundreds of users. */
function usersByName(plan: Plan): Map<string, PlanUser> {
  let index = userIndexes.get(plan);
  if (!index || index.users !== plan.users || index.length !== plan.users.length) {
    const byName = new Map<string, PlanUser>();
    for (const user of plan.users) if (!byName.has(user.name)) byName.set(user.name, user);
    userIndexes.set(plan, (index = { users: plan.users, length: plan.users.length, byName }));
  }
  return index.byName;
}
