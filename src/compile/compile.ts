import { ConfigInvalidError, type ConfigIssue, type SourceLocation } from '../core/errors.js';
import type { ConfigPath } from '../core/path.js';
import { Redactor } from '../core/redactor.js';
import type { AuthConfig } from '../config/index.js';
import { compileProcedure, compileUser } from './generic.js';
import type { Plan, PlanProcedure, PlanUser } from './plan.js';
import { compilePreset } from './presets/index.js';
import { registerPlan } from './secrets.js';
import { resolveValidations } from './validation.js';
import { applyReauth, reauthIssues } from './reauth.js';
import { checkTemplateSyntax } from './template-check.js';
import { applyPresetUserRefresh } from './preset-user-refresh.js';
import { compileAccess } from './access.js';
import { markSingleUse, planMail } from './mail.js';

/** Options of {@link compile}: how its issues are reported. */
export interface CompileOptions {
  /** The config file, named in the error's message; default `config`. */
  file?: string;
  /** Position of a config path in the file (`LoadedConfig.locate`), so every issue says `file:line:col`. */
  locate?: (path: ConfigPath) => SourceLocation | undefined;
}

/**
 * Compiles a validated config into the Plan the runtime executes: every preset becomes ordinary
 * users and procedures (see `presets/`), every curl command is parsed into an `http` operation,
 * every alias and shape variant is normalised, and every element keeps its config path (`origin`).
 *
 * Users come in declaration order, presets first (DESIGN.md); procedures are the config's own, then
 * those compiled from presets, named `preset[<index>]:<type>[:<user>]` (see `presetProcedureName`).
 *
 * @throws ConfigInvalidError with every issue found (each located when `options.locate` is given):
 *   a curl command the simulator refuses (`CURL_PARSE`, `CURL_UNSUPPORTED_OPTION`, `CURL_FORBIDDEN`
 *   in the issue's message), a procedure of the config with a name a preset procedure needs (names
 *   starting with `preset[` are reserved).
 * @example
 * const plan = compile(AuthConfig.parse(YAML.parse(text)));
 * plan.users.map((u) => u.name); // ['alice', 'bob']
 * compile(loaded.config, { file: loaded.file, locate: loaded.locate }); // issues at file:line:col
 */
export function compile(config: AuthConfig, options: CompileOptions = {}): Plan {
  const procedures: Record<string, PlanProcedure> = {};
  const secrets: string[] = [];
  const issues: ConfigIssue[] = [];
  config.procedures.forEach((procedure, index) => {
    procedures[procedure.name] = compileProcedure(procedure, index);
  });

  const presetUsers = config.presets.flatMap((preset, index) => {
    const output = compilePreset(preset, index);
    for (const procedure of output.procedures) {
      const taken = procedures[procedure.name];
      if (taken) {
        issues.push({
          severity: 'error',
          path: [...taken.origin, 'name'],
          message: `procedure name "${procedure.name}" is reserved for a preset`,
          hint: 'Rename the procedure: names starting with "preset[" name the procedures compiled from presets.',
        });
      } else {
        procedures[procedure.name] = procedure;
      }
    }
    secrets.push(...output.secrets);
    issues.push(...(output.issues ?? []));
    return output.users;
  });
  const users = [...presetUsers, ...config.users.map((user, index) => compileUser(user, index))];
  applyPresetUserRefresh(users, config);
  applyReauth(users, config);
  issues.push(...reauthIssues(config));
  issues.push(...resolveValidations(users, config));
  issues.push(...checkTemplateSyntax(Object.values(procedures)));
  if (issues.length) {
    const located = issues.map((issue) => ({ ...issue, location: issue.location ?? options.locate?.(issue.path) }));
    throw new ConfigInvalidError(options.file ?? 'config', located);
  }

  markSingleUse(procedures);
  const plan: Plan = {
    users,
    procedures,
    scope: [...(config.scope ?? [])],
    mtls: [...(config.mtls ?? [])],
  };
  if (config.proxy !== undefined) plan.proxy = config.proxy;
  if (config.lifetime !== undefined) plan.lifetime = config.lifetime;
  if (config.access) plan.access = compileAccess(config.access, users, config.validation || undefined);
  if (config.mail) plan.mail = planMail(config.mail);
  const distinct = [...new Set(secrets)].filter((s) => s !== '');
  if (distinct.length) plan.secrets = distinct;
  return maskCurlSources(plan);
}

/**
 * Masks every secret of the plan in the curl commands kept for error messages, as the run's
 * redactor would (a password written into a command, a user's variable value): the plan then
 * holds no command text that is unsafe to print.
 */
function maskCurlSources(plan: Plan): Plan {
  let redactor: Redactor | undefined;
  for (const procedure of Object.values(plan.procedures)) {
    for (const operation of procedure.operations) {
      if (operation.tech !== 'http' || operation.source === undefined) continue;
      redactor ??= registerPlan(new Redactor(), plan);
      operation.source.command = redactor.redact(operation.source.command);
    }
  }
  return plan;
}
