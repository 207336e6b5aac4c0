import { MultiAuthError } from '../core/errors.js';
import type { AuthConfig } from '../config/schema/index.js';
import { compileProcedure, compileUser } from './generic.js';
import type { Plan, PlanProcedure, PlanUser } from './plan.js';
import { compilePreset } from './presets/index.js';

/**
 * Compiles a validated config into the Plan the runtime executes: every preset becomes ordinary
 * users and procedures (see `presets/`), every alias and shape variant is normalised, and every
 * element keeps its config path (`origin`).
 *
 * Users come in declaration order, presets first (DESIGN.md); procedures are the config's own, then
 * those compiled from presets, named `preset[<index>]:<type>[:<user>]` (see `presetProcedureName`).
 *
 * @throws MultiAuthError `CONFIG_INVALID` when a procedure of the config has a name a preset
 *   procedure needs (names starting with `preset[` are reserved).
 * @example
 * const plan = compile(AuthConfig.parse(YAML.parse(text)));
 * plan.users.map((u) => u.name); // ['alice', 'bob']
 */
export function compile(config: AuthConfig): Plan {
  const procedures: Record<string, PlanProcedure> = {};
  const secrets: string[] = [];
  config.procedures.forEach((procedure, index) => {
    procedures[procedure.name] = compileProcedure(procedure, index);
  });

  const presetUsers = config.presets.flatMap((preset, index) => {
    const output = compilePreset(preset, index);
    for (const procedure of output.procedures) {
      const taken = procedures[procedure.name];
      if (taken) {
        throw new MultiAuthError('CONFIG_INVALID', `procedure name "${procedure.name}" is reserved for a preset`, {
          path: [...taken.origin, 'name'],
          hint: 'Rename the procedure: names starting with "preset[" name the procedures compiled from presets.',
        });
      }
      procedures[procedure.name] = procedure;
    }
    secrets.push(...output.secrets);
    return output.users;
  });

  const plan: Plan = {
    users: [...presetUsers, ...config.users.map((user, index) => answersDigest(compileUser(user, index), procedures))],
    procedures,
    scope: [...(config.scope ?? [])],
    mtls: [...(config.mtls ?? [])],
  };
  if (config.proxy !== undefined) plan.proxy = config.proxy;
  const distinct = [...new Set(secrets)].filter((s) => s !== '');
  if (distinct.length) plan.secrets = distinct;
  return plan;
}

/**
 * A user whose procedure (or refresh procedure) has a `digest` operation answers challenges with
 * its username and password: they are never also sent as HTTP Basic (which would hand the password
 * to the server in clear text, and to every later request of the session).
 */
function answersDigest(user: PlanUser, procedures: Record<string, PlanProcedure>): PlanUser {
  const names = [user.procedure, user.refresh?.procedure].filter((name): name is string => name !== undefined);
  if (!names.some((name) => procedures[name]?.operations.some((op) => op.tech === 'digest'))) return user;
  user.credentials.basic = false;
  if (user.refresh?.credentials) user.refresh.credentials.basic = false;
  return user;
}
