import type { ConfigIssue } from '../core/errors.js';
import type { ConfigPath } from '../core/path.js';
import { parsedTemplate, scanTemplate, TemplateSyntaxError, TEMPLATE_FUNCTIONS, unclosedMessage } from '../core/template-expr.js';
import type { PlanProcedure } from './plan.js';

/**
 * Every `{{ }}` that a sign-in expands (requests, digest requests, browser commands) is closed,
 * parses, and calls known functions with the right number of arguments: one located error per string, before
 * anything is sent (the runtime parses with the same parser). Credentials and variables are values,
 * never templates, and are not looked at. Walked without recursion: configs are untrusted input.
 *
 * @example
 * checkTemplateSyntax(procedures);
 * // [{ severity: 'error', path: ['procedures', 0, 'operations', 0], message: 'invalid template {{ }} in request.headers: unknown function basci() ...' }]
 */
export function checkTemplateSyntax(procedures: Iterable<PlanProcedure>): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const procedure of procedures) {
    for (const op of procedure.operations) {
      // Browser commands and a procedure's parameters keep their config paths (a header compiled
      // to a pair is located at its nearest part); a preset's request was compiled from several
      // keys, so its operation is named with the field.
      if (op.tech === 'browser') issues.push(...walk(op.project, [...op.origin, 'project'], true));
      else if (op.tech === 'http' && op.origin[0] === 'procedures') issues.push(...walk(op.request, [...op.origin, 'parameters'], true));
      else if (op.tech === 'http') issues.push(...walk(op.request, op.origin, false, 'request'));
      else if (op.tech === 'email') issues.push(...walk(op.to, [...op.origin, 'parameters', 'to'], true));
      else issues.push(...walk([op.first, op.second], op.origin, false, 'request'));
    }
  }
  return issues;
}

function walk(root: unknown, origin: ConfigPath, exact: boolean, label?: string): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const stack: Array<{ value: unknown; path: ConfigPath }> = [{ value: root, path: [] }];
  while (stack.length) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (!value.includes('{{')) continue;
      const issue = stringIssue(value, exact ? [...origin, ...path] : origin, exact ? undefined : [label, ...path].filter((p) => p !== undefined).join('.'));
      if (issue) issues.push(issue);
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) stack.push({ value: value[index], path: [...path, index] });
    } else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value);
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index]!;
        stack.push({ value: (value as Record<string, unknown>)[key], path: [...path, key] });
      }
    }
  }
  return issues;
}

function stringIssue(text: string, path: ConfigPath, field: string | undefined): ConfigIssue | undefined {
  const { blocks, unclosed } = scanTemplate(text);
  for (const block of blocks) {
    try {
      parsedTemplate(block.source);
    } catch (error) {
      if (!(error instanceof TemplateSyntaxError)) throw error;
      return {
        severity: 'error',
        path,
        message: `invalid template {{ }}${field ? ` in ${field}` : ''}: ${error.message}`,
        hint: `Inside {{ }}: a variable, a quoted string, a + b, or one of ${Object.values(TEMPLATE_FUNCTIONS).map((f) => f.signature).join(', ')}.`,
      };
    }
  }
  if (unclosed === undefined) return undefined;
  return {
    severity: 'error',
    path,
    message: `invalid template {{ }}${field ? ` in ${field}` : ''}: ${unclosedMessage(unclosed)}`,
    hint: 'Close the expression with }}. Anything from {{ on is a template: there is no literal {{ in a procedure\'s strings.',
  };
}
