import { MultiAuthError, type AuthContext } from '../../core/errors.js';
import type { Redactor } from '../../core/redactor.js';

/**
 * The same error with the sign-in's context filled in where the thrower left it out (the thrower's
 * own fields win), and its message, details and URL passed through the redactor, so that a value
 * that leaked into a message (a server's echo, a templated URL) is masked before anyone prints it.
 * Anything that is not a {@link MultiAuthError} is a bug and is returned unchanged.
 *
 * @example
 * catch (error) { throw withSignInContext(error, { user: 'alice', procedure: 'login', step: 0, stepKind: 'http' }, redactor); }
 */
export function withSignInContext(error: unknown, context: AuthContext, redactor: Redactor): unknown {
  // Subclasses (config errors with their issue lists) carry more than the base fields: leave them be.
  if (!(error instanceof MultiAuthError) || error.constructor !== MultiAuthError) return error;
  const merged: AuthContext = { ...context };
  for (const [key, value] of Object.entries(error.context ?? {})) {
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  if (merged.url !== undefined) merged.url = redactor.redact(merged.url);
  const rebuilt = new MultiAuthError(error.code, redactor.redact(error.message), {
    context: merged,
    details: error.details.map((line) => redactor.redact(line)),
    cause: error.cause,
    ...(error.path !== undefined && { path: error.path }),
    ...(error.location !== undefined && { location: error.location }),
    ...(error.hint !== undefined && { hint: redactor.redact(error.hint) }),
  });
  rebuilt.stack = error.stack;
  return rebuilt;
}
