import { expressionVariables, parsedTemplate, scanTemplate } from './template-expr.js';

/**
 * The `{{ }}` template syntax, for compile-time checks and for compilers that write templates.
 * Runtime expansion lives in `runtime/template/template.ts` and uses the same scanner and parser
 * (`template-expr.ts`).
 */

/** Selenium IDE's `${name}`, which browser commands also expand (DESIGN.md "Browser procedures"). */
export const SELENIUM_VARIABLE_PATTERN = /\$\{\s*([A-Za-z_][\w.-]*)\s*\}/g;

/**
 * Whether `name` can be written as a `{{name}}` template.
 *
 * @example
 * isTemplateName('refresh_token'); // true
 * isTemplateName('my var');        // false
 */
export function isTemplateName(name: string): boolean {
  return /^[A-Za-z_][\w.-]*$/.test(name);
}

/**
 * The template that expands to variable `name`.
 *
 * @example
 * templateOf('password'); // '{{password}}'
 */
export function templateOf(name: string): string {
  return `{{${name}}}`;
}

/**
 * Variable names read by `{{ }}` templates in the strings inside `value` (objects and arrays
 * walked), in order of first appearance; with `selenium`, `${name}` counts too. A template that
 * does not parse reads nothing here (compile reports it).
 *
 * @example
 * templateNames({ url: 'https://x/{{tenant}}', body: ['{{ user }}'] }); // ['tenant', 'user']
 * templateNames('type ${login}', { selenium: true });                  // ['login']
 */
export function templateNames(value: unknown, options: { selenium?: boolean } = {}): string[] {
  const names = new Set<string>();
  const visit = (item: unknown): void => {
    if (typeof item === 'string') {
      if (item.includes('{{')) for (const block of scanTemplate(item).blocks) for (const name of blockVariables(block.source)) names.add(name);
      if (options.selenium) for (const match of item.matchAll(SELENIUM_VARIABLE_PATTERN)) names.add(match[1] as string);
    } else if (Array.isArray(item)) {
      item.forEach(visit);
    } else if (item !== null && typeof item === 'object') {
      Object.values(item).forEach(visit);
    }
  };
  visit(value);
  return [...names];
}

function blockVariables(source: string): string[] {
  try {
    return expressionVariables(parsedTemplate(source));
  } catch {
    return [];
  }
}
