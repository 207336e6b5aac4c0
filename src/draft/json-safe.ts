/** Keys that would reach an object's prototype if a later step copied them naively. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * How deep arrays and objects nest in a JSON text, counted up to `stop + 1`: one pass, strings
 * skipped, so that the parser never meets a nesting that would exhaust its stack.
 *
 * @example
 * jsonNesting('{"a":[1,{"b":2}]}', 64); // 3
 */
export function jsonNesting(text: string, stop: number): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > stop) return max;
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}
