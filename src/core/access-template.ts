/**
 * `{{ users.NAME.VAR }}` in the access matrix's requests: a variable another user declares (seed
 * data such as the id of an object that user owns). Read by the config's checks and by compile,
 * which writes the value in; nothing else is templated in an access request.
 */

/** A `{{ ... }}` block; bounded by the config's own string limits, and never nested. */
const BLOCK = /\{\{([^{}]{0,1000})\}\}/g;
/** `users.NAME.VAR`: the variable is the last segment, so a user name may hold dots. */
const REFERENCE = /^\s*users\.(.+)\.([A-Za-z_][\w-]*)\s*$/;

/** One `{{ ... }}` block of an access request: a reference, or text this place cannot expand. */
export type AccessTemplateBlock =
  | { kind: 'reference'; raw: string; user: string; variable: string }
  | { kind: 'other'; raw: string };

/**
 * The `{{ ... }}` blocks of `text`, in order.
 *
 * @example
 * accessTemplateBlocks('/posts/{{ users.bob.draft_id }}'); // [{ kind: 'reference', raw: '{{ users.bob.draft_id }}', user: 'bob', variable: 'draft_id' }]
 */
export function accessTemplateBlocks(text: string): AccessTemplateBlock[] {
  const found: AccessTemplateBlock[] = [];
  for (const match of text.matchAll(BLOCK)) {
    const inner = REFERENCE.exec(match[1] as string);
    found.push(inner ? { kind: 'reference', raw: match[0], user: inner[1] as string, variable: inner[2] as string } : { kind: 'other', raw: match[0] });
  }
  return found;
}

/**
 * Every string of a request's parts (URL, header values, body), with where it sits, for the checks
 * and for compile to walk the same way. Bounded: a body deeper than 32 levels is not walked further.
 *
 * @example
 * accessStrings({ url: 'https://a.test/{{ users.bob.id }}' }); // [{ path: ['url'], text: 'https://a.test/{{ users.bob.id }}' }]
 */
export function accessStrings(request: { url: string; headers?: Record<string, string>; body?: unknown }): Array<{ path: Array<string | number>; text: string }> {
  const found: Array<{ path: Array<string | number>; text: string }> = [{ path: ['url'], text: request.url }];
  for (const [name, value] of Object.entries(request.headers ?? {})) found.push({ path: ['headers', name], text: value });
  const walk = (value: unknown, path: Array<string | number>, depth: number): void => {
    if (depth > 32) return;
    if (typeof value === 'string') found.push({ path, text: value });
    else if (Array.isArray(value)) value.forEach((item, index) => walk(item, [...path, index], depth + 1));
    else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) walk(item, [...path, key], depth + 1);
  };
  walk(request.body, ['body'], 0);
  return found;
}
