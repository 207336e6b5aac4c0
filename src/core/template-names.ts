/**
 * The `{{ name }}` template syntax, for compile-time checks and for compilers that write
 * templates. Runtime expansion lives in `runtime/template/template.ts` and uses the same pattern.
 */

/** `{{ name }}` with optional spaces; names are identifier-like (letters, digits, `_`, `.`, `-`). */
export const TEMPLATE_PATTERN = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g;

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
 * Variable names used by `{{ name }}` templates in the strings inside `value` (objects and arrays
 * walked), in order of first appearance; with `selenium`, `${name}` counts too.
 *
 * @example
 * templateNames({ url: 'https://x/{{tenant}}', body: ['{{ user }}'] }); // ['tenant', 'user']
 * templateNames('type ${login}', { selenium: true });                  // ['login']
 */
export function templateNames(value: unknown, options: { selenium?: boolean } = {}): string[] {
  const names = new Set<string>();
  const visit = (item: unknown): void => {
    if (typeof item === 'string') {
      for (const match of item.matchAll(TEMPLATE_PATTERN)) names.add(match[1] as string);
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
