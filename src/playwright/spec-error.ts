import { isMultiAuthError } from '../core/errors.js';
import { redactError } from '../core/error-context.js';
import { Redactor } from '../core/redactor.js';

/** Errors already made by {@link toSpecError}: passing one through again must not wrap it twice. */
const made = new WeakSet<object>();

/**
 * A {@link MultiAuthError} as a spec receives it: the same class and `code`, every text masked by
 * `redactor` (see `redactError`), and shaped for Playwright's report, which prints an error's name,
 * message and stack frames only. So `message` is the whole text as `render()` gives it (the
 * context, details and recommended fix included) and the stack has no frames: the error is a
 * user's mistake or a server's answer, and its place in this package's code helps nobody. Anything
 * else (a bug) is returned unchanged, with its stack.
 *
 * @example
 * const error = await signInAs('bob').catch((e) => e);
 * error instanceof MultiAuthError; // true
 * error.code; // 'AUTH_HTTP_STATUS'
 */
export function toSpecError(error: unknown, redactor: Redactor = new Redactor()): unknown {
  if (!isMultiAuthError(error) || made.has(error)) return error;
  const shown = redactError(error, redactor);
  shown.message = `playwright-multiauth: ${shown.render()}`;
  shown.stack = `${shown.name}: ${shown.message}`;
  // Playwright prints an error thrown while playwright.config.ts loads (authProjects) with
  // util.inspect, which lists own enumerable fields after the message: `code`, `issues` and the
  // rest would repeat the message as raw objects. They stay readable, only hidden from that listing.
  for (const key of Object.keys(shown)) Object.defineProperty(shown, key, { enumerable: false });
  made.add(shown);
  return shown;
}
