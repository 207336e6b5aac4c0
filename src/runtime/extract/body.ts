import type { PlanExtraction } from '../../compile/plan.js';
import type { Observation } from '../observation.js';
import { getPath, isPlainObject } from '../json-path.js';
import { listNames, type Lookup } from './types.js';

type ParsedBody = { json: true; value: unknown } | { json: false; text: string };

/**
 * Body `key` in the responses of the step, the latest first:
 * 1. a JSON body where `key` resolves as a dot path (`data.login.token`, `items.0.id`);
 * 2. else a JSON body holding a property named `key` anywhere: the first found depth-first, in
 *    document order (the Python original's lookup);
 * 3. else, for a non-JSON body, the whole text: with a `regex`, every non-empty text body is a
 *    candidate (latest first); without one, only the latest response's body, when it is text.
 *
 * With `match: 'first-key-ending-token'`, steps 1-3 are replaced by: the first string, depth-first,
 * under `key` (a dot path, e.g. `data`) whose property name ends with `token`, ignoring case.
 *
 * Strings are taken as they are; numbers and booleans as their JSON text; objects and arrays as JSON;
 * `null` counts as not found.
 *
 * @example
 * bodyLookup(observation, { key: 'access_token' }).candidates; // ['eyJ...']
 */
export function bodyLookup(observation: Observation, extraction: Pick<PlanExtraction, 'key' | 'regex' | 'match'>): Lookup {
  const bodies = [...observation.responses]
    .reverse()
    .filter((r) => r.body !== undefined && r.body !== '')
    .map((r) => parseBody(r.body as string));
  const jsonValues = bodies.flatMap((b) => (b.json ? [b.value] : []));
  const candidates: string[] = [];
  const push = (value: unknown) => {
    const text = asText(value);
    if (text !== undefined) candidates.push(text);
  };
  const { key } = extraction;

  if (extraction.match === 'first-key-ending-token') {
    for (const json of jsonValues) {
      const root = getPath(json, key);
      if (root.found) push(findDepthFirst(root.value, (name, value) => /token$/i.test(name) && typeof value === 'string'));
    }
  } else {
    for (const json of jsonValues) {
      const resolved = getPath(json, key);
      if (resolved.found) push(resolved.value);
    }
    for (const json of jsonValues) push(findDepthFirst(json, (name) => name === key));
    if (extraction.regex !== undefined) {
      for (const body of bodies) if (!body.json) candidates.push(body.text);
    } else if (bodies[0] && !bodies[0].json) {
      candidates.push(bodies[0].text);
    }
  }

  return {
    candidates,
    seen: () => {
      if (bodies.length === 0) return ['response bodies: (none)'];
      return bodies.map((b, i) => {
        const which = i === 0 ? 'latest response body' : `response body ${i + 1} from the end`;
        if (!b.json) return `${which}: text (${b.text.length} characters)`;
        const keys = isPlainObject(b.value) ? `top-level keys ${listNames(Object.keys(b.value))}` : 'not an object';
        return `${which}: JSON, ${keys}`;
      });
    },
  };
}

function parseBody(text: string): ParsedBody {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null) return { json: true, value };
  } catch {
    // Not JSON: the body is text.
  }
  return { json: false, text };
}

function asText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/**
 * The value of the first property, depth-first in document order, for which `accept` holds; a
 * property's own value is searched before its later siblings.
 */
function findDepthFirst(node: unknown, accept: (name: string, value: unknown) => boolean): unknown {
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = findDepthFirst(item, accept);
      if (found !== undefined) return found;
    }
  } else if (isPlainObject(node)) {
    for (const [name, value] of Object.entries(node)) {
      if (accept(name, value) && value !== null) return value;
      const found = findDepthFirst(value, accept);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
