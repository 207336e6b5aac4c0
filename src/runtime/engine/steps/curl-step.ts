import { MultiAuthError } from '../../../core/errors.js';
import { withContext } from '../../../core/error-context.js';
import type { Redactor } from '../../../core/redactor.js';
import type { PlanCurlOperation, RequestTemplate } from '../../../compile/plan.js';
import { checkCurlUrl, parseCurl } from '../../../compile/curl/index.js';
import type { StepContext, StepResult } from './step.js';
import { sendTemplate } from './http-step.js';

/** A command is parsed once per process, however many users and refreshes run it. */
const parsed = new Map<string, RequestTemplate>();

/** Longest part of a command an error shows (a command may be 64 KiB). */
const SHOWN_COMMAND_LENGTH = 400;

/**
 * Runs a `curl` operation: the command is parsed by the sandboxed simulator (no shell, no files),
 * its strings are templated like any request, and the URL and proxy are checked again after
 * templating, since `{{auth_url}}` could only be judged once known. An error of the step names
 * the command's place in the config (`presets[0].requests[1]`) and shows the command as written,
 * on one line, redacted (a literal password in it is masked).
 *
 * @example
 * const { observation } = await runCurlStep(op, ctx);
 */
export async function runCurlStep(op: PlanCurlOperation, ctx: StepContext): Promise<StepResult> {
  try {
    let template = parsed.get(op.command);
    if (!template) {
      template = parseCurl(op.command);
      parsed.set(op.command, template);
    }
    return await sendTemplate(template, ctx, {
      origin: op.origin,
      check: (wire) => {
        checkCurlUrl(wire.request.url);
        if (wire.proxy) checkCurlUrl(wire.proxy);
      },
    });
  } catch (error) {
    throw withCurlCommand(error, op, ctx.redactor);
  }
}

/** The same error, with the operation's config path (unless it has one) and the redacted command. */
function withCurlCommand(error: unknown, op: PlanCurlOperation, redactor: Redactor): unknown {
  if (!(error instanceof MultiAuthError) || error.constructor !== MultiAuthError) return error;
  // Redact before cutting, so that a secret cut in half is still masked.
  const command = redactor.redact(op.command.replace(/\\\r?\n/g, ' ').replace(/\s+/g, ' ').trim());
  const shown = command.length > SHOWN_COMMAND_LENGTH ? `${command.slice(0, SHOWN_COMMAND_LENGTH)}… (cut)` : command;
  return withContext(error, { path: op.origin, details: [`curl command: ${shown}`] });
}
