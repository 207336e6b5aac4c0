import type { HeaderPair } from '../http/observation.js';
import type { Session } from './session.js';

/**
 * The one rule for several values of one request header, whoever sends the request: one field per
 * name (names compared ignoring case; the first spelling and position kept), its values joined
 * with `, `, or with `; ` for `Cookie`.
 *
 * Why joined rather than repeated: Playwright's `APIRequestContext` and `route.fallback` take
 * headers as a `Record<string, string>`, so two of the three senders of a session (`authedRequest`,
 * browser routing) cannot repeat a field; joining everywhere makes every sender put the same bytes
 * on the wire. RFC 9110 section 5.3 makes the joined field mean the same as repeated fields of a
 * list-valued header (and a header that is not a list must not be repeated at all); RFC 6265
 * section 5.4 wants one `Cookie` field, its pairs separated by `; `.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-5.3
 * @see https://www.rfc-editor.org/rfc/rfc6265#section-5.4
 * @example
 * combineHeaders([['Accept', 'a'], ['accept', 'b'], ['Cookie', 'x=1'], ['cookie', 'y=2']]);
 * // [['Accept', 'a, b'], ['Cookie', 'x=1; y=2']]
 */
export function combineHeaders(headers: readonly HeaderPair[]): HeaderPair[] {
  const out: HeaderPair[] = [];
  const at = new Map<string, number>();
  for (const [name, value] of headers) {
    const key = name.toLowerCase();
    const index = at.get(key);
    if (index === undefined) {
      at.set(key, out.length);
      out.push([name, value]);
      continue;
    }
    const field = out[index] as HeaderPair;
    field[1] = joinValues(key, field[1], value);
  }
  return out;
}

function joinValues(key: string, first: string, next: string): string {
  const separator = key === 'cookie' ? '; ' : ', ';
  if (first.trim() === '') return next;
  if (next.trim() === '') return first;
  return `${first}${separator}${next}`;
}

/**
 * The headers a session adds to every request, as they go on the wire ({@link combineHeaders}):
 * one field per name, several values joined. `multiauth login` prints them so, and
 * `applySession` adds them so.
 *
 * @example
 * sessionHeaders({ ...session, headers: { 'X-Role': ['a', 'b'] } }); // [['X-Role', 'a, b']]
 */
export function sessionHeaders(session: Pick<Session, 'headers'>): HeaderPair[] {
  return combineHeaders(Object.entries(session.headers).flatMap(([name, values]) => values.map((value): HeaderPair => [name, value])));
}

/**
 * Whether `headers` has a field named `name` (ignoring case).
 *
 * @example
 * hasHeader([['content-type', 'text/plain']], 'Content-Type'); // true
 */
export function hasHeader(headers: readonly HeaderPair[], name: string): boolean {
  const key = name.toLowerCase();
  return headers.some(([n]) => n.toLowerCase() === key);
}
