/**
 * Small helpers over parsed JSON values: plain-object test and dot paths (`data.login.token`,
 * `items.0.id`), shared by body extractions and body injections.
 */

/**
 * True for `{}`-style objects (what YAML and JSON produce); false for arrays, null, class instances.
 *
 * @example
 * isPlainObject({ a: 1 }); // true
 * isPlainObject([1]);      // false
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Reads a dot path. A key that exists whole (`{"a.b": 1}` with path `a.b`) is preferred; numeric
 * segments index arrays. Returns `{ found: false }` when the path does not resolve.
 *
 * @example
 * getPath({ items: [{ id: 7 }] }, 'items.0.id'); // { found: true, value: 7 }
 */
export function getPath(root: unknown, path: string): { found: true; value: unknown } | { found: false } {
  if (isPlainObject(root) && Object.hasOwn(root, path)) return { found: true, value: root[path] };
  let current: unknown = root;
  for (const segment of segmentsOf(path)) {
    if (Array.isArray(current) && /^\d+$/.test(segment) && Number(segment) < current.length) {
      current = current[Number(segment)];
    } else if (isPlainObject(current) && Object.hasOwn(current, segment)) {
      current = current[segment];
    } else {
      return { found: false };
    }
  }
  return { found: true, value: current };
}

/** Where {@link walkPath} stopped: the segments that resolved, and the value they lead to. */
export interface PathWalk {
  /** The segments that resolved, in order (empty when the first one did not). */
  walked: string[];
  /** The first segment that did not resolve; undefined when the whole path did. */
  missing?: string;
  /** The value the walked segments lead to (the root when none did). */
  at: unknown;
}

/**
 * Follows a dot path as {@link getPath} does and says how far it got: for an error that shows the
 * path walked and what was there when nothing was found.
 *
 * @example
 * walkPath({ data: { auth: { token_type: 'x' } } }, 'data.auth.access_token');
 * // { walked: ['data', 'auth'], missing: 'access_token', at: { token_type: 'x' } }
 */
export function walkPath(root: unknown, path: string): PathWalk {
  if (isPlainObject(root) && Object.hasOwn(root, path)) return { walked: [path], at: root[path] };
  const walked: string[] = [];
  let current: unknown = root;
  for (const segment of segmentsOf(path)) {
    if (Array.isArray(current) && /^\d+$/.test(segment) && Number(segment) < current.length) {
      current = current[Number(segment)];
    } else if (isPlainObject(current) && Object.hasOwn(current, segment)) {
      current = current[segment];
    } else {
      return { walked, missing: segment, at: current };
    }
    walked.push(segment);
  }
  return { walked, at: current };
}

/** Paths come from the config, so there are few; at most this many are kept. */
const MAX_CACHED_PATHS = 500;
const pathSegments = new Map<string, string[]>();

/**
 * A path's segments, split once: the same key strings every time are also what makes the property
 * lookups fast (V8 looks a fresh string up in its string table at every use as a key).
 */
function segmentsOf(path: string): string[] {
  let segments = pathSegments.get(path);
  if (!segments) {
    segments = path.split('.');
    if (pathSegments.size < MAX_CACHED_PATHS) pathSegments.set(path, segments);
  }
  return segments;
}

/**
 * Writes `value` at a dot path inside a JSON object, creating the objects on the way (a numeric
 * segment indexes an existing array). Mutates `root`.
 *
 * @example
 * const body = { a: 1 };
 * setPath(body, 'auth.token', 'x'); // body is { a: 1, auth: { token: 'x' } }
 */
export function setPath(root: Record<string, unknown>, path: string, value: unknown): void {
  const segments = path.split('.');
  let current: Record<string, unknown> | unknown[] = root;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    const last = i === segments.length - 1;
    if (Array.isArray(current) && /^\d+$/.test(segment)) {
      if (last) {
        current[Number(segment)] = value;
        return;
      }
      const next: unknown = current[Number(segment)];
      current = isPlainObject(next) || Array.isArray(next) ? next : (current[Number(segment)] = {});
      continue;
    }
    const object = current as Record<string, unknown>;
    if (last) {
      setOwn(object, segment, value);
      return;
    }
    const next = Object.hasOwn(object, segment) ? object[segment] : undefined;
    if (isPlainObject(next) || Array.isArray(next)) current = next;
    else {
      const created: Record<string, unknown> = {};
      setOwn(object, segment, created);
      current = created;
    }
  }
}

/**
 * Sets an own property, whatever its name: `__proto__` (and `constructor`, `prototype`) are plain
 * keys of the body, never a way into the prototype chain (paths come from configs and bodies from
 * servers: both untrusted).
 *
 * @example
 * setOwn(variables, '__proto__', 'x'); // an own key named __proto__; the prototype is untouched
 */
export function setOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__' || !Object.hasOwn(object, key) && key in object) {
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    object[key] = value;
  }
}

/**
 * A deep copy of a JSON value (what config bodies are): plain objects and arrays are copied, other
 * objects (a YAML date) go through `structuredClone`. Many times cheaper than `structuredClone` for
 * the small bodies of sign-in requests, which are copied on every sign-in.
 *
 * @example
 * const copy = cloneJson({ a: [1, { b: 2 }] }); // equal, shares nothing
 */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => cloneJson(item)) as T;
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = cloneJson(value[key]);
      // Assigning `__proto__` would set the prototype instead of copying the key.
      if (key === '__proto__') Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
      else out[key] = item;
    }
    return out as T;
  }
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}
