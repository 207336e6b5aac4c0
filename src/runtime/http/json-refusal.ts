/**
 * The words of a JSON answer that read as a refusal, whatever its status: many APIs refuse a
 * sign-in with a 200 (a wiki's `{"login":{"result":"Failed","reason":"…"}}`, a JSON-RPC `error`,
 * a GraphQL-like `errors` array). A server's answer is untrusted: the walk is bounded in body size,
 * depth, objects visited, quotes and characters, and reads only the own members it names.
 */

/** Bodies longer than this are not parsed (a sign-in's refusal is small). */
const MAX_BODY_CHARS = 256 * 1024;
/** How deep the walk looks for a refusal (`{login: {result, reason}}` is depth 1). */
const MAX_DEPTH = 3;
/** Objects looked at, at most. */
const MAX_OBJECTS = 64;
/** Quotes kept, and the characters of each. */
const MAX_QUOTES = 4;
const MAX_QUOTE_CHARS = 200;
/** Items of an `errors` array quoted. */
const MAX_ERRORS = 3;

/** A `result` that says the call went through: not a refusal, its `reason` (if any) not quoted. */
const SUCCESS_RESULT = /^(success|succeeded|ok|pass|passed|true|done)$/i;

type Json = Record<string, unknown>;

/**
 * What a JSON body says in its refusal members, one line (`; ` between quotes), or undefined when it
 * has none or is not a JSON object: `error` (a string, with `error_description`; or an object's
 * `message` and `data`, a string or its `message`), `errors[]` (their messages), `message`, and a
 * `result` other than success with its `reason`; at the top or up to three objects deep. The text
 * is the server's, not yet masked: callers pass it through the redactor (as `bodyExcerpt` does).
 *
 * @example
 * describeJsonRefusal('{"login":{"result":"Failed","reason":"Incorrect username or password entered."}}');
 * // 'Failed: Incorrect username or password entered.'
 * describeJsonRefusal('{"jsonrpc":"2.0","error":{"code":200,"message":"Server Error","data":{"message":"Access Denied"}}}');
 * // 'Server Error; Access Denied'
 */
export function describeJsonRefusal(body: string): string | undefined {
  const root = parsedObject(body);
  if (root === undefined) return undefined;
  const quotes: string[] = [];
  const add = (text: unknown): void => {
    if (typeof text !== 'string' || quotes.length >= MAX_QUOTES) return;
    const flat = text.replace(/\s+/g, ' ').trim();
    if (!flat) return;
    const cut = flat.length > MAX_QUOTE_CHARS ? `${flat.slice(0, MAX_QUOTE_CHARS)}…` : flat;
    if (!quotes.includes(cut)) quotes.push(cut);
  };
  let visited = 0;
  const queue: Array<{ node: Json; depth: number }> = [{ node: root, depth: 0 }];
  while (queue.length > 0 && visited < MAX_OBJECTS && quotes.length < MAX_QUOTES) {
    const { node, depth } = queue.shift()!;
    visited++;
    quoteRefusal(node, add);
    if (depth >= MAX_DEPTH) continue;
    for (const key of Object.keys(node)) {
      if (key === '__proto__' || key === 'error' || key === 'errors') continue;
      const child = objectOf(node[key]);
      if (child) queue.push({ node: child, depth: depth + 1 });
    }
  }
  return quotes.length ? quotes.join('; ') : undefined;
}

/** The refusal members of one object, in the order a reader wants them. */
function quoteRefusal(node: Json, add: (text: unknown) => void): void {
  const error = own(node, 'error');
  if (typeof error === 'string') {
    const description = own(node, 'error_description');
    add(typeof description === 'string' && description.trim() ? `${error}: ${description}` : error);
  } else {
    const object = objectOf(error);
    if (object) {
      add(own(object, 'message'));
      const data = own(object, 'data');
      add(typeof data === 'string' ? data : objectOf(data) && own(objectOf(data)!, 'message'));
    }
    add(own(node, 'error_description'));
  }
  const errors = own(node, 'errors');
  if (Array.isArray(errors)) {
    for (const item of errors.slice(0, MAX_ERRORS)) add(typeof item === 'string' ? item : objectOf(item) && own(objectOf(item)!, 'message'));
  }
  add(own(node, 'message'));
  const result = own(node, 'result');
  if (typeof result === 'string' && !SUCCESS_RESULT.test(result.trim())) {
    const reason = own(node, 'reason');
    const text = typeof reason === 'string' ? reason : objectOf(reason) && (stringOf(own(objectOf(reason)!, 'text')) ?? stringOf(own(objectOf(reason)!, 'message')));
    if (typeof text === 'string') add(`${result}: ${text}`);
  }
}

function parsedObject(body: string): Json | undefined {
  const text = body.trimStart();
  if (!text.startsWith('{') || text.length > MAX_BODY_CHARS) return undefined;
  try {
    return objectOf(JSON.parse(text));
  } catch {
    return undefined;
  }
}

function own(node: Json, key: string): unknown {
  return Object.hasOwn(node, key) ? node[key] : undefined;
}

function objectOf(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
