import type { BrowserProject } from '../config/index.js';
import type { PlanCredentials, PlanOperation, PlanProcedure } from './plan.js';
import { isTemplateName, templateNames } from '../core/template-names.js';

/**
 * What variables the parts of a Plan define and use, for checks before anything runs
 * (`checkPlan`). Every answer errs on the side of "defined": a check built on these must never
 * reject a config that can work.
 */

/** Selenium IDE commands whose `value` names a variable they set, besides every `store*` command. */
const VALUE_STORING_COMMANDS = new Set(['executescript', 'executeasyncscript']);

/**
 * Names of the variables a browser project may set: the variable argument of every `store*`
 * command (its `value`, or its `target` when it has no value, as `storeTitle` does) and of
 * `executeScript`/`executeAsyncScript`.
 *
 * @example
 * storedVariables({ tests: [{ id: 't', name: 't', commands: [
 *   { id: 'c', command: 'storeText', target: 'css=#token', value: 'token' }] }] }); // ['token']
 */
export function storedVariables(project: BrowserProject): string[] {
  const names: string[] = [];
  for (const test of project.tests) {
    for (const command of test.commands) {
      const name = storedBy(command.command, command.target, command.value);
      if (name !== undefined) names.push(name);
    }
  }
  return names;
}

function storedBy(command: string, target: string, value: string | undefined): string | undefined {
  const normalised = command.replace(/\s+/g, '').toLowerCase();
  if (!normalised.startsWith('store') && !VALUE_STORING_COMMANDS.has(normalised)) return undefined;
  const candidate = value !== undefined && value.trim() !== '' ? value.trim() : target.trim();
  return isTemplateName(candidate) ? candidate : undefined;
}

/**
 * Variables an operation sets: its extractions, and for a browser operation what its commands store.
 *
 * @example
 * producedBy({ tech: 'http', extractions: [{ name: 'token', ... }], ... }); // ['token']
 */
export function producedBy(operation: PlanOperation): string[] {
  const names = operation.extractions.map((e) => e.name);
  if (operation.tech === 'browser') names.push(...storedVariables(operation.project));
  if (operation.tech === 'browser' && operation.authorize) names.push('authorization_code');
  return names;
}

/**
 * Every variable a procedure may set, in order.
 *
 * @example
 * producedByProcedure(plan.procedures['login']); // ['access_token', 'refresh_token']
 */
export function producedByProcedure(procedure: PlanProcedure): string[] {
  return procedure.operations.flatMap(producedBy);
}

/**
 * Variables an operation reads through templates, each with the names it sets before that use
 * (a browser command may use what an earlier command of the same operation stored).
 *
 * @example
 * usedBy({ tech: 'http', request: { url: 'https://x/{{tenant}}', body: 'u={{user}}', ... }, ... });
 * // [{ name: 'tenant', definedBefore: [] }, { name: 'user', definedBefore: [] }]
 */
export function usedBy(operation: PlanOperation): Array<{ name: string; definedBefore: string[] }> {
  switch (operation.tech) {
    case 'http':
      return plain(templateNames(operation.request));
    case 'digest':
      return plain(templateNames([operation.first, operation.second]));
    case 'email':
      return plain(templateNames(operation.to));
    case 'browser': {
      const uses: Array<{ name: string; definedBefore: string[] }> = [];
      const stored: string[] = [];
      for (const test of operation.project.tests) {
        for (const command of test.commands) {
          const setsVariable = storedBy(command.command, command.target, command.value);
          const read = setsVariable === undefined ? [command.target, command.targets, command.value] : [command.target, command.targets];
          for (const name of templateNames(read, { selenium: true })) uses.push({ name, definedBefore: [...stored] });
          if (setsVariable !== undefined) stored.push(setsVariable);
        }
      }
      return uses;
    }
  }
}

function plain(names: string[]): Array<{ name: string; definedBefore: string[] }> {
  return names.map((name) => ({ name, definedBefore: [] }));
}

/**
 * Variables a procedure sees at its start from declarations: the declared variables, and
 * `username`/`password` when the credentials have them (DESIGN.md "Templating").
 *
 * @example
 * declaredVariables({ tenant: 'acme' }, { username: 'alice', password: 'pw', ... }); // ['tenant', 'username', 'password']
 */
export function declaredVariables(variables: Record<string, string>, credentials: PlanCredentials): string[] {
  const names = Object.keys(variables);
  if (credentials.username !== undefined) names.push('username');
  if (credentials.password !== undefined) names.push('password');
  return names;
}
