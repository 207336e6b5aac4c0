import type { ConfigIssue } from '../../core/errors.js';
import { isMultiAuthError } from '../../core/errors.js';
import type { Plan } from '../plan.js';
import { parseCurl } from './parse.js';

/**
 * Parses every curl command of a plan before anything is sent, so that `multiauth validate`
 * reports an unsupported option, a forbidden construct or a quoting mistake at the config line
 * that holds the command (the operation's `origin`). A command shared by several users (a
 * curl_sequence request) is reported once.
 *
 * @example
 * curlIssues(plan);
 * // [{ severity: 'error', path: ['presets', 0, 'users', 1, 'curl'],
 * //    message: 'curl command: option `-o` is not allowed: writes the response to a file [CURL_FORBIDDEN]', hint: '...' }]
 */
export function curlIssues(plan: Plan): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const seen = new Set<string>();
  for (const procedure of Object.values(plan.procedures)) {
    for (const operation of procedure.operations) {
      if (operation.tech !== 'curl') continue;
      const key = JSON.stringify(operation.origin);
      if (seen.has(key)) continue;
      seen.add(key);
      try {
        parseCurl(operation.command);
      } catch (error) {
        if (!isMultiAuthError(error)) throw error;
        const issue: ConfigIssue = { severity: 'error', path: operation.origin, message: `${error.message} [${error.code}]` };
        if (error.hint) issue.hint = error.hint;
        issues.push(issue);
      }
    }
  }
  return issues;
}
