import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigInvalidError, MultiAuthError, type ConfigIssue } from '../../src/core/errors.js';
import { formatPath } from '../../src/core/path.js';

/** A fresh directory holding `files`; call `remove()` when done. */
export function tempDir(files: Record<string, string> = {}): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'multiauth-config-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The error `run` throws; fails when it throws nothing or something that is not a MultiAuthError. */
export function thrown(run: () => unknown): MultiAuthError {
  try {
    run();
  } catch (error) {
    if (error instanceof MultiAuthError) return error;
    throw new Error(`expected a MultiAuthError, got ${String(error)}`);
  }
  throw new Error('expected an error, nothing was thrown');
}

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
