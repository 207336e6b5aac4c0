import type { Plan, PlanBrowserOperation } from '../../../compile/index.js';
import type { BrowserCommand } from '../../../config/index.js';
import type { ConfigIssue } from '../../../core/errors.js';
import type { ConfigPath } from '../../../core/path.js';
import { formatPath } from '../../../core/path.js';
import { didYouMean } from '../../../core/suggest.js';
import { checkArg, type ArgSpec } from './args.js';
import { BROWSER_COMMANDS, UNSUPPORTED_COMMANDS, isDisabledCommand } from './commands.js';
import { buildFlow } from './control-flow.js';
import { alternatives } from './locators.js';

/**
 * Checks every browser operation of a plan against the command table before anything runs:
 * unknown commands (with a "did you mean"), commands this runner refuses (and why), blocks that
 * do not nest (an `end` without an `if`, a `repeatIf` without a `do`, …), a missing
 * required target or value, malformed locators (unknown prefix), unknown `${KEY_…}` names, and
 * the shapes of sizes, timeouts, coordinates, JSON, window and option locators. Parts hidden by a
 * `{{name}}` or `${name}` are left to the run. Paths are `op.origin` + `project.tests[i].commands[j]…`.
 *
 * @example
 * browserIssues(plan);
 * // [{ severity: 'error', path: [..., 'commands', 2, 'command'], message: 'unknown command "clik" (did you mean "click"?)' }]
 */
export function browserIssues(plan: Plan): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const seen = new Set<string>();
  for (const procedure of Object.values(plan.procedures)) {
    for (const op of procedure.operations) {
      if (op.tech !== 'browser') continue;
      const key = formatPath(op.origin);
      if (seen.has(key)) continue;
      seen.add(key);
      issues.push(...operationIssues(op));
    }
  }
  return issues;
}

function operationIssues(op: PlanBrowserOperation): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const [t, test] of op.project.tests.entries()) {
    const commands: ConfigPath = [...op.origin, 'project', 'tests', t, 'commands'];
    for (const [c, command] of test.commands.entries()) {
      issues.push(...commandIssues(command, [...commands, c]));
    }
    for (const issue of buildFlow(test.commands.map((command) => command.command)).issues) {
      issues.push({ severity: 'error', path: [...commands, issue.index, 'command'], message: issue.message, hint: BLOCK_HINT });
    }
  }
  return issues;
}

const BLOCK_HINT =
  'Blocks nest as in Selenium IDE: if … elseIf … else … end; while, times or forEach … end; do … repeatIf; ' +
  'break inside a loop (docs/browser.md, "Control flow").';

const NAMES = Object.keys(BROWSER_COMMANDS);

function commandIssues(command: BrowserCommand, path: ConfigPath): ConfigIssue[] {
  if (isDisabledCommand(command.command)) return [];
  const name = command.command.trim();
  const error = (field: ConfigPath, message: string, hint?: string): ConfigIssue => ({
    severity: 'error',
    path: [...path, ...field],
    message,
    ...(hint ? { hint } : {}),
  });
  if (Object.hasOwn(UNSUPPORTED_COMMANDS, name)) {
    return [error(['command'], `the command "${name}" is not supported: ${UNSUPPORTED_COMMANDS[name]}`)];
  }
  const spec = Object.hasOwn(BROWSER_COMMANDS, name) ? BROWSER_COMMANDS[name] : undefined;
  if (!spec) {
    return [
      error(['command'], `unknown command "${name}"${didYouMean(name, NAMES)}`,
        'See docs/browser.md for the Selenium IDE commands multiauth runs.'),
    ];
  }
  const issues: ConfigIssue[] = [];
  const check = (field: 'target' | 'value', arg: ArgSpec | undefined, text: string | undefined): void => {
    if (!arg) return;
    if (!text?.trim()) {
      if (arg.required) issues.push(error([field], `${name} needs a ${field}`));
      return;
    }
    const problem = checkArg(arg.kind, text);
    if (problem) issues.push(error([field], problem));
  };
  check('target', spec.args.target, command.target);
  check('value', spec.args.value, command.value);
  const kind = spec.args.target?.kind;
  if (kind === 'locator' || kind === 'frameLocator') {
    for (const alternative of alternatives(command)) {
      if (!alternative.locator.trim()) continue;
      const problem = checkArg(kind, alternative.locator);
      const field = alternative.index === undefined ? ['targets'] : ['targets', alternative.index];
      if (problem) issues.push(error(field, problem));
    }
  }
  return issues;
}
