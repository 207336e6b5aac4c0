import { MultiAuthError } from '../../../core/errors.js';
import type { ConfigPath } from '../../../core/path.js';
import type { Redactor } from '../../../core/redactor.js';
import type { CurlSource } from '../../../compile/index.js';
// url.js alone, not the simulator's index: a worker that only sends requests never loads the parser.
import { checkCurlUrl } from '../../../compile/index.js';
import type { WireRequest } from './wire-request.js';

/** Longest part of a command an error shows (a command may be 64 KiB). */
const SHOWN_COMMAND_LENGTH = 400;

/**
 * The curl sandbox's rule that only the variables can settle: once templated, the URL and the
 * proxy of a request compiled from a curl command must still be http(s) (`'{{url}}'` could expand
 * to `file:///etc/passwd`). Called before anything is sent.
 *
 * @throws MultiAuthError `CURL_FORBIDDEN` for another scheme, `CURL_PARSE` for a URL that is not one.
 * @example
 * checkCurlWire(buildWireRequest(op.request, scope, credentials, where));
 */
export function checkCurlWire(wire: WireRequest): void {
  checkCurlUrl(wire.request.url);
  if (wire.proxy) checkCurlUrl(wire.proxy);
}

/**
 * The same error with the operation's config path (unless it has one) and the curl command it was
 * compiled from, on one line, redacted again with what the run knows, and cut to 400 characters.
 * Errors of other classes than `MultiAuthError` itself are returned as they are.
 *
 * @example
 * throw withCurlCommand(error, op.source, op.origin, ctx.redactor);
 * // ...details: ["curl command: curl '{{base}}/login' -d 'username=alice&password=********'"]
 */
export function withCurlCommand(error: unknown, source: CurlSource, origin: ConfigPath, redactor: Redactor): unknown {
  if (!(error instanceof MultiAuthError) || error.constructor !== MultiAuthError) return error;
  // Redact before cutting, so that a secret cut in half is still masked.
  const command = redactor.redact(source.command);
  const shown = command.length > SHOWN_COMMAND_LENGTH ? `${command.slice(0, SHOWN_COMMAND_LENGTH)}… (cut)` : command;
  const rebuilt = new MultiAuthError(error.code, error.message, {
    path: error.path ?? origin,
    details: [...error.details, `curl command: ${shown}`],
    cause: error.cause,
    ...(error.location !== undefined && { location: error.location }),
    ...(error.context !== undefined && { context: error.context }),
    ...(error.hint !== undefined && { hint: error.hint }),
  });
  rebuilt.stack = error.stack;
  return rebuilt;
}
