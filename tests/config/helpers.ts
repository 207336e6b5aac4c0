import { ConfigInvalidError, type ConfigIssue } from '../../src/core/errors.js';
import { thrown } from '../support/errors.js';
import { formatPath } from '../../src/core/path.js';

/** The issues of the ConfigInvalidError `run` throws. */
export function issuesOf(run: () => unknown): ConfigIssue[] {
  const error = thrown(run);
  if (!(error instanceof ConfigInvalidError)) throw new Error(`expected ConfigInvalidError, got ${error.code}: ${error.message}`);
  return error.issues;
}

/** `path: message` lines of issues, for compact assertions. */
export function brief(issues: ConfigIssue[]): string[] {
  return issues.map((i) => `${i.severity === 'warning' ? 'warning ' : ''}${formatPath(i.path)}: ${i.message}`);
}

/** `line:column` of an issue. */
export function position(issue: ConfigIssue | undefined): string {
  return issue?.location ? `${issue.location.line}:${issue.location.column}` : '(none)';
}
