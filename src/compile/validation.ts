import type { ConfigIssue } from '../core/errors.js';
import type { ConfigPath } from '../core/path.js';
import { compileUserRegex } from '../core/regex.js';
import type { AuthConfig, Validation, ValidationSetting } from '../config/index.js';
import type { PlanUser, PlanValidation } from './plan.js';
import { REGEX_HINT } from './reauth.js';

/**
 * Gives each user the session check that applies to it (`validation`: the user's own, else its
 * preset's, else the top level's; `false` turns it off, `true` means the top level's). Returns the
 * issues: `true` where the top level has none. `users` are changed in place.
 *
 * @example
 * resolveValidations(plan.users, config); // alice.validation: { url: 'https://app.test/api/me', ... }
 */
export function resolveValidations(users: PlanUser[], config: AuthConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const top = config.validation || undefined;
  for (const user of users) {
    const [kind, index] = user.origin;
    let setting: ValidationSetting | undefined;
    let origin: ConfigPath;
    if (kind === 'users' && typeof index === 'number') {
      setting = config.users[index]?.validation;
      origin = ['users', index, 'validation'];
    } else if (kind === 'presets' && typeof index === 'number') {
      setting = config.presets[index]?.validation;
      origin = ['presets', index, 'validation'];
    } else {
      continue;
    }
    if (setting === undefined || setting === true) {
      if (setting === true && !top) {
        issues.push({ severity: 'error', path: origin, message: '`validation: true` names the top-level validation, and there is none', hint: 'Add a top-level `validation: { url: ... }`, or write the check here.' });
      }
      if (top) user.validation = planValidation(top, ['validation']);
    } else if (setting !== false) {
      user.validation = planValidation(setting, origin);
    }
    if (user.validation) issues.push(...regexIssues(user.validation));
  }
  // One issue per place, however many users it has.
  return issues.filter((issue, i) => issues.findIndex((other) => other.path.join('.') === issue.path.join('.')) === i);
}

function regexIssues(check: PlanValidation): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  for (const [key, pattern] of [['match', check.match], ['not_match', check.notMatch]] as const) {
    if (pattern === undefined) continue;
    try {
      compileUserRegex(pattern);
    } catch (error) {
      out.push({ severity: 'error', path: [...check.origin, key], message: `not a valid regular expression: ${(error as Error).message}`, hint: REGEX_HINT });
    }
  }
  return out;
}

function planValidation(check: Validation, origin: ConfigPath): PlanValidation {
  const out: PlanValidation = { url: check.url, method: check.method ?? 'GET', origin };
  if (check.headers !== undefined) out.headers = Object.entries(check.headers);
  if (check.body !== undefined) out.body = check.body;
  if (check.status !== undefined) out.status = Array.isArray(check.status) ? [...check.status] : [check.status];
  if (check.match !== undefined) out.match = check.match;
  if (check.not_match !== undefined) out.notMatch = check.not_match;
  return out;
}
