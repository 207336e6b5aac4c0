import type { PlanExtraction } from '../../../compile/index.js';
import type { HeaderPair, Observation, ObservedResponse } from '../../http/observation.js';
import { getPath, isPlainObject, walkPath } from '../../../core/json-path.js';
import { listNames, type Lookup } from './types.js';

/**
 * A response body as the lookup sees it. `wholeText` is false for text that is plainly not a bare
 * token: a body that claims or looks like JSON and does not parse, or an HTML page; such a body is
 * never taken whole (a regex may still pick a value out of it).
 */
type ParsedBody =
  | { json: true; value: unknown }
  | { json: false; text: string; wholeText: true; kind: 'text' }
  | { json: false; text: string; wholeText: false; kind: 'JSON that does not parse' | 'an HTML page' };

/**
 * Body `key` in the responses of the step, the latest first (`key: ""`: the latest body whole, JSON
 * as JSON text):
 * 1. a JSON body where `key` resolves as a dot path (`data.login.token`, `items.0.id`);
 * 2. else a JSON body holding a property named `key` anywhere: the first found depth-first, in
 *    document order (the Python original's lookup);
 * 3. else, for a non-JSON body, the whole text: with a `regex`, every non-empty text body is a
 *    candidate (latest first); without one, only the latest response's body, when it is plain text:
 *    not malformed JSON (a JSON `Content-Type`, or text starting with `{` or `[`, that does not
 *    parse) nor an HTML page, which are never a token as a whole (the error then says what it was).
 *
 * With `match: 'first-key-ending-token'`, steps 1-3 are replaced by: the first string, depth-first,
 * under `key` (a dot path, e.g. `data`) whose property name ends with `token`, ignoring case.
 *
 * Strings are taken as they are; numbers and booleans as their JSON text; objects and arrays as JSON;
 * `null` counts as not found.
 *
 * @example
 * [...bodyLookup(observation, { key: 'access_token' }).candidates]; // ['eyJ...']
 */
export function bodyLookup(observation: Observation, extraction: Pick<PlanExtraction, 'key' | 'regex' | 'match'>): Lookup {
  const bodies = parsedBodies(observation);
  const latest = bodies[0];
  return {
    // Each iteration starts over: an error lists all candidates after a first pass found none.
    candidates: { [Symbol.iterator]: () => candidatesOf(bodies, extraction) },
    seen: () => {
      if (bodies.length === 0) return ['response bodies: (none)'];
      return bodies.map((b, i) => {
        const which = i === 0 ? 'latest response body' : `response body ${i + 1} from the end`;
        if (!b.json) return `${which}: ${b.kind} (${b.text.length} characters)`;
        const keys = isPlainObject(b.value) ? `top-level keys ${listNames(Object.keys(b.value))}` : 'not an object';
        return `${which}: JSON, ${keys}${extraction.match === undefined ? pathStop(b.value, extraction.key) : ''}`;
      });
    },
    ...(latest &&
      !latest.json &&
      !latest.wholeText &&
      extraction.regex === undefined && {
        reason: () =>
          latest.kind === 'an HTML page'
            ? 'the latest response body is an HTML page, not JSON'
            : 'the latest response body is not valid JSON (it does not parse)',
      }),
  };
}

/**
 * The first candidate of {@link bodyLookup} when it comes from its first rule (a JSON body where
 * `key` resolves as a dot path), without building the lookup: what nearly every body extraction
 * finds. `undefined` when no body resolves `key`; the whole lookup then decides.
 *
 * @example
 * resolvedBodyValue(observation, 'data.auth.access_token'); // 'eyJ...'
 */
export function resolvedBodyValue(observation: Observation, key: string): string | undefined {
  if (key === '') return undefined;
  for (const body of parsedBodies(observation)) {
    if (!body.json) continue;
    const resolved = getPath(body.value, key);
    const text = resolved.found ? asText(resolved.value) : undefined;
    if (text !== undefined) return text;
  }
  return undefined;
}

/** Computed as they are asked for: the depth-first searches are seldom needed. */
function* candidatesOf(bodies: ParsedBody[], extraction: Pick<PlanExtraction, 'key' | 'regex' | 'match'>): Generator<string> {
  const { key } = extraction;
  if (key === '') {
    // The whole latest body (a server's WebAuthn options answered bare, for one): JSON as its text.
    const latest = bodies[0];
    if (latest) yield* latest.json ? asCandidate(latest.value) : [latest.text];
    return;
  }
  if (extraction.match === 'first-key-ending-token') {
    for (const body of bodies) {
      const root = body.json ? getPath(body.value, key) : undefined;
      if (root?.found) yield* asCandidate(findDepthFirst(root.value, (name, value) => /token$/i.test(name) && typeof value === 'string'));
    }
    return;
  }
  for (const body of bodies) {
    const resolved = body.json ? getPath(body.value, key) : undefined;
    if (resolved?.found) yield* asCandidate(resolved.value);
  }
  for (const body of bodies) if (body.json) yield* asCandidate(findDepthFirst(body.value, (name) => name === key));
  if (extraction.regex !== undefined) {
    for (const body of bodies) if (!body.json) yield body.text;
  } else if (bodies[0] && !bodies[0].json && bodies[0].wholeText) {
    yield bodies[0].text;
  }
}

/**
 * The last observation whose bodies were parsed: the extractions of a step read the same one in a
 * row, so each body is parsed once. One slot, not a WeakMap: a WeakMap entry costs more than a
 * parse. The slot is known by the observation and its latest response, as they were when parsed.
 */
let lastParsed: { observation: Observation; count: number; latest: ObservedResponse | undefined; body: string | undefined; bodies: ParsedBody[] } | undefined;

/** The non-empty bodies of the observation's responses, parsed, the latest first. */
function parsedBodies(observation: Observation): ParsedBody[] {
  const responses = observation.responses;
  const latest = responses.at(-1);
  if (lastParsed && lastParsed.observation === observation && lastParsed.count === responses.length && lastParsed.latest === latest && lastParsed.body === latest?.body) {
    return lastParsed.bodies;
  }
  const bodies: ParsedBody[] = [];
  for (let i = responses.length - 1; i >= 0; i--) {
    const response = responses[i] as ObservedResponse;
    if (response.body !== undefined && response.body !== '') bodies.push(parseBody(response.body, response.headers));
  }
  lastParsed = { observation, count: responses.length, latest, body: latest?.body, bodies };
  return bodies;
}

function parseBody(text: string, headers: HeaderPair[]): ParsedBody {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null) return { json: true, value };
    return { json: false, text, wholeText: true, kind: 'text' };
  } catch {
    // Not JSON: the body is text, unless it says or looks otherwise.
  }
  const type = contentType(headers);
  const trimmed = text.trimStart();
  const claimsJson = /[/+]json\b/.test(type) || trimmed.startsWith('{') || trimmed.startsWith('[');
  if (claimsJson) return { json: false, text, wholeText: false, kind: 'JSON that does not parse' };
  if (type.includes('html') || /^<(!doctype|html|head|body)\b/i.test(trimmed)) return { json: false, text, wholeText: false, kind: 'an HTML page' };
  return { json: false, text, wholeText: true, kind: 'text' };
}

/**
 * How far a dot path got in a JSON body that does not resolve it: the segments walked and the keys
 * where it stopped (names only, never values). Empty when the walk stopped at the top (the
 * top-level keys say it) or the path resolved.
 */
function pathStop(root: unknown, key: string): string {
  const walk = walkPath(root, key);
  if (walk.missing === undefined || walk.walked.length === 0) return '';
  const there = isPlainObject(walk.at)
    ? `keys ${listNames(Object.keys(walk.at))}`
    : Array.isArray(walk.at)
      ? `an array of ${walk.at.length} item${walk.at.length === 1 ? '' : 's'}`
      : walk.at === null ? 'null' : `a ${typeof walk.at}`;
  return `; path walked ${listNames([walk.walked.join('.')])}, no "${listNames([walk.missing])}" there: ${there}`;
}

function contentType(headers: HeaderPair[]): string {
  return (headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '').toLowerCase();
}

function asCandidate(value: unknown): string[] {
  const text = asText(value);
  return text === undefined ? [] : [text];
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
  // An explicit stack: a server's JSON may be nested thousands deep (recursion would overflow).
  // Children go on in reverse so they come off in document order, as a recursive walk visits them.
  const stack: Array<{ value: unknown; name?: string }> = [{ value: node }];
  while (stack.length) {
    const { value, name } = stack.pop()!;
    if (name !== undefined && accept(name, value) && value !== null) return value;
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) stack.push({ value: value[index] });
    } else if (isPlainObject(value)) {
      const entries = Object.entries(value);
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, item] = entries[index]!;
        stack.push({ value: item, name: key });
      }
    }
  }
  return undefined;
}
