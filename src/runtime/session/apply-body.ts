import type { HeaderPair } from '../http/observation.js';
import type { Session } from './session.js';
import { isPlainObject, setPath } from '../../core/json-path.js';
import { mergeBody } from './merge.js';

/** How a request body is read for {@link applySessionBody}. */
export type BodyKind = 'json' | 'form' | 'text';

/**
 * A request body as its sender holds it: text as it goes on the wire, or a value the sender
 * serialises itself (Playwright's `data` as JSON, its `form` as form fields). The spec's merge rules
 * compare the body's type, so a structured body merges where its text would be replaced.
 */
export type OutgoingBody = string | { json: unknown } | { form: Record<string, unknown> };

/**
 * A session's body rules applied to one request body, whatever its form: text by
 * {@link applySessionBody} (its kind from the headers), a structured body by
 * {@link applySessionData}. The input is not modified.
 *
 * @example
 * applyBodyRules({ json: { a: 1 } }, [], { set: { token: 't' } }); // { json: { a: 1, token: 't' } }
 */
export function applyBodyRules<Body extends OutgoingBody>(body: Body, headers: readonly HeaderPair[], rules: Session['body']): Body {
  const given: OutgoingBody = body;
  const out: OutgoingBody =
    typeof given === 'string'
      ? applySessionBody(given, bodyKind(headers, given), rules)
      : 'json' in given
        ? { json: applySessionData(given.json, 'json', rules) }
        : { form: applySessionData(given.form, 'form', rules) as Record<string, unknown> };
  // Each form of body comes back in the same form.
  return out as Body;
}

/**
 * Decides how to treat a body: by its `Content-Type` (anything with `json` -> JSON,
 * `application/x-www-form-urlencoded` -> form, any other type -> text); without one, by sniffing
 * (a JSON object or array -> JSON, `a=1&b=2` -> form, else text).
 *
 * @example
 * bodyKind([['content-type', 'application/vnd.api+json']], '{}'); // 'json'
 * bodyKind([], 'grant_type=password&username=a');                 // 'form'
 */
export function bodyKind(headers: readonly HeaderPair[], body: string): BodyKind {
  const contentType = headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1].toLowerCase();
  if (contentType !== undefined) {
    if (contentType.includes('json')) return 'json';
    if (contentType.includes('application/x-www-form-urlencoded')) return 'form';
    return 'text';
  }
  if (parseJsonContainer(body) !== undefined) return 'json';
  if (/^[^=&\s]+=[^&\s]*(?:&[^=&\s]+=[^&\s]*)*$/.test(body)) return 'form';
  return 'text';
}

/**
 * A session's body rules applied to one request body (see `Session.body`): first `merge` by the
 * spec's body rules ({@link mergeBody}: the body as parsed JSON for JSON bodies, as text otherwise),
 * then every `set` path written in: into a JSON object (dot paths create objects on the way) or
 * into a form body (the field of that name replaced, else appended, its value URL-encoded once).
 * A text body, or a JSON body that is not an object, gets no `set` values. A body whose JSON does
 * not parse is treated as text.
 *
 * @example
 * applySessionBody('{"a":1}', 'json', { set: { 'auth.token': 'x' } }); // '{"a":1,"auth":{"token":"x"}}'
 * applySessionBody('a=1', 'form', { set: { token: 'x y' } });          // 'a=1&token=x%20y'
 */
export function applySessionBody(body: string, kind: BodyKind, rules: Session['body']): string {
  if (rules.merge === undefined && Object.keys(rules.set).length === 0) return body;
  let value: unknown = body;
  if (kind === 'json') {
    const parsed = parseJsonContainer(body);
    if (parsed === undefined) kind = 'text';
    else value = parsed;
  }
  if (rules.merge !== undefined) value = mergeBody(value, rules.merge);
  if (typeof value === 'string') return kind === 'form' ? setFormFields(value, rules.set) : value;
  if (isPlainObject(value)) for (const [path, v] of Object.entries(rules.set)) setPath(value, path, v);
  return JSON.stringify(value);
}

/**
 * A session's body rules applied to a structured body (what a Playwright spec passes as `data` or
 * `form`): `merge` by the spec's rules, then each `set` value written in: by dot path into JSON
 * data, by field name into form fields. `null` and `undefined` are left alone; so is a merged value
 * that is not an object. The input is not modified.
 *
 * @example
 * applySessionData({ name: 'x' }, 'json', { set: { 'auth.token': 't' } }); // { name: 'x', auth: { token: 't' } }
 */
export function applySessionData(body: unknown, kind: 'json' | 'form', rules: Session['body']): unknown {
  if (body === undefined || body === null) return body;
  const merged = rules.merge === undefined ? body : mergeBody(body, rules.merge);
  if (!isPlainObject(merged)) return merged;
  const out = structuredClone(merged);
  for (const [path, value] of Object.entries(rules.set)) {
    if (kind === 'form') out[path] = value;
    else setPath(out, path, value);
  }
  return out;
}

function parseJsonContainer(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

function setFormFields(body: string, fields: Record<string, string>): string {
  const pairs = body === '' ? [] : body.split('&');
  for (const [name, value] of Object.entries(fields)) {
    const encoded = `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
    const at = pairs.findIndex((pair) => decodeFormName(pair) === name);
    if (at === -1) {
      pairs.push(encoded);
      continue;
    }
    pairs[at] = encoded;
    for (let i = pairs.length - 1; i > at; i--) if (decodeFormName(pairs[i] as string) === name) pairs.splice(i, 1);
  }
  return pairs.join('&');
}

function decodeFormName(pair: string): string {
  const raw = pair.split('=', 1)[0] as string;
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}
