import { errorData, type ErrorData } from '../core/error-data.js';
import type { MultiAuthError } from '../core/errors.js';
import type { Redactor } from '../core/redactor.js';

/**
 * An error as every `--json` output shows it (the whole command's, or one user's in `check`):
 * `{code, message, hint?, details, path?, location?, context?, file?, issues?}`, the fields of
 * `errorData`. Strings go through `redactor` when given (the error's own text is masked already
 * wherever it was built; this is the last place before it is printed).
 *
 * @example
 * jsonError(new MultiAuthError('USER_UNKNOWN', 'no user named "alcie"')); // { code: 'USER_UNKNOWN', message: ..., details: [] }
 */
export function jsonError(error: MultiAuthError, redactor?: Redactor): ErrorData {
  const data = errorData(error);
  return redactor ? redactor.redactJson(data) : data;
}

/**
 * What a command prints on stdout with `--json` when it fails as a whole (exit 1 or 2): one line of
 * text holding `{"ok": false, "error": {...}}`, valid JSON whatever went wrong.
 *
 * @example
 * io.stdout.write(jsonFailure(error)); // '{\n  "ok": false,\n  "error": {"code": "CONFIG_INVALID", ...}\n}\n'
 */
export function jsonFailure(error: MultiAuthError, redactor?: Redactor): string {
  return jsonText({ ok: false, error: jsonError(error, redactor) });
}

/**
 * A value as `--json` prints it: indented by two spaces, one newline at the end.
 *
 * @example
 * io.stdout.write(jsonText({ ok: true, users: ['alice'] }));
 */
export function jsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
