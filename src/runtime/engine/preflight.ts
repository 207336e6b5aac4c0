import type { ConfigIssue } from '../../core/errors.js';
import type { Plan } from '../../compile/index.js';
import { browserIssues } from '../protocols/browser/validate.js';

/**
 * Checks that need the runtime's own tables, before anything is sent: Selenium IDE commands are
 * known and well-formed (curl commands were already parsed by `compile`). `multiauth validate` and
 * the fixtures call it after compiling; issues carry config paths (`origin`) for the caller to locate.
 *
 * @example
 * const issues = preflight(compile(loaded.config)).map((i) => ({ ...i, location: loaded.locate(i.path) }));
 */
export function preflight(plan: Plan): ConfigIssue[] {
  return browserIssues(plan);
}
