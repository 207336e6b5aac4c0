import { ConfigInvalidError, MultiAuthError, type AuthContext, type ConfigIssue } from './errors.js';
import type { ConfigPath } from './path.js';
import type { Redactor } from './redactor.js';

/** What {@link withContext} adds to an error on its way up. */
export interface ErrorAdditions {
  /** User, procedure, step...: filled in where the error leaves them out (the thrower's own fields win). */
  context?: AuthContext;
  /** The config path the error concerns, when the error names none. */
  path?: ConfigPath;
  /** Words appended to the message, e.g. ` after 3 attempts`. */
  messageSuffix?: string;
  /** Lines appended to the details (already redacted, or redacted here when a redactor is given). */
  details?: string[];
  /** A recommended fix that replaces the error's own, from a caller that knows more of what happened. */
  hint?: string;
}

/**
 * The same error with what a caller knows added: the sign-in's context, the config path, words
 * for the message, detail lines. With a redactor, its message, details, hint and URL are also
 * masked, so that a value that leaked into a message (a server's echo, a templated URL) is masked
 * before anyone prints it. The code, location, cause and stack stay.
 *
 * Only a plain {@link MultiAuthError} is rebuilt: anything else is a bug and is returned unchanged,
 * and so is a subclass (a config error carries its issue list, which it already locates).
 *
 * @example
 * catch (error) {
 *   throw withContext(error, { context: { user: 'alice', procedure: 'login', step: 0, stepKind: 'http' } }, redactor);
 * }
 */
export function withContext(error: MultiAuthError, added: ErrorAdditions, redactor?: Redactor): MultiAuthError;
export function withContext(error: unknown, added: ErrorAdditions, redactor?: Redactor): unknown;
export function withContext(error: unknown, added: ErrorAdditions, redactor?: Redactor): unknown {
  if (!(error instanceof MultiAuthError) || error.constructor !== MultiAuthError) return error;
  const redact = redactor ? (text: string) => redactor.redact(text) : (text: string) => text;
  const context = mergeContext(added.context, error.context);
  if (context?.url !== undefined) context.url = redact(context.url);
  const path = error.path ?? added.path;
  const rebuilt = new MultiAuthError(error.code, redact(`${error.message}${added.messageSuffix ?? ''}`), {
    details: [...error.details, ...(added.details ?? [])].map(redact),
    cause: error.cause,
    ...(context !== undefined && { context }),
    ...(path !== undefined && { path }),
    ...(error.location !== undefined && { location: error.location }),
    ...((added.hint ?? error.hint) !== undefined && { hint: redact((added.hint ?? error.hint) as string) }),
  });
  rebuilt.stack = error.stack;
  return rebuilt;
}

/**
 * A copy of the error of the same class and code with every text masked: message, details, hint,
 * the context's URL, and each issue of a {@link ConfigInvalidError}. The cause is left out: it is
 * a lower-level error whose text nobody redacted. For errors handed to code outside this package
 * (a user's spec), which may print or inspect any field.
 *
 * @example
 * const shown = redactError(error, redactor);
 * shown.code === error.code; // true; shown.cause === undefined
 */
export function redactError(error: MultiAuthError, redactor: Redactor): MultiAuthError {
  const redact = (text: string) => redactor.redact(text);
  if (error instanceof ConfigInvalidError) {
    return new ConfigInvalidError(error.file, error.issues.map((issue) => redactIssue(issue, redactor)), error.code);
  }
  const context = error.context && { ...error.context };
  if (context?.url !== undefined) context.url = redact(context.url);
  return new MultiAuthError(error.code, redact(error.message), {
    details: error.details.map(redact),
    ...(context !== undefined && { context }),
    ...(error.path !== undefined && { path: error.path }),
    ...(error.location !== undefined && { location: error.location }),
    ...(error.hint !== undefined && { hint: redact(error.hint) }),
  });
}

/**
 * The issue with its message and hint masked.
 *
 * @example
 * redactIssue({ severity: 'error', path: [], message: 'bad pw hunter2' }, redactor).message; // 'bad pw ********'
 */
export function redactIssue(issue: ConfigIssue, redactor: Redactor): ConfigIssue {
  const out: ConfigIssue = { ...issue, message: redactor.redact(issue.message) };
  if (issue.hint !== undefined) out.hint = redactor.redact(issue.hint);
  return out;
}

function mergeContext(added: AuthContext | undefined, own: AuthContext | undefined): AuthContext | undefined {
  if (added === undefined && own === undefined) return undefined;
  const merged: AuthContext = { ...added };
  for (const [key, value] of Object.entries(own ?? {})) {
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  return merged;
}
