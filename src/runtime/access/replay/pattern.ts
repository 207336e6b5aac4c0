/**
 * URL patterns: the requests a test sends to `/api/orders/17` and `/api/orders/18` are one request
 * to replay, `GET /api/orders/{id}`. Segments are classified by a scan of their characters (no regex
 * walks an untrusted URL).
 */

/** A segment this long or longer, all hexadecimal digits, is an id (a hash, an object id). */
const MIN_HEX_ID = 16;
/** Segments of a path looked at; a longer path keeps the rest as is (the pattern stays bounded). */
const MAX_SEGMENTS = 64;
/** Query parameter names kept in a pattern. */
const MAX_QUERY_NAMES = 50;

/**
 * The pattern of a request: its method, origin and path with numeric ids, UUIDs and long hex
 * strings replaced by `{id}`, `{uuid}` and `{hex}`, and its query parameters' names (sorted) without
 * their values. `undefined` for a URL that does not parse.
 *
 * @example
 * requestPattern('get', 'https://a.test/api/orders/17?page=2&q=x');
 * // 'GET https://a.test/api/orders/{id}?page&q'
 */
export function requestPattern(method: string, url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const segments = parsed.pathname.split('/');
  const path = segments.map((segment, index) => (index < MAX_SEGMENTS ? segmentPattern(segment) : segment)).join('/');
  const names = [...new Set(parsed.searchParams.keys())].slice(0, MAX_QUERY_NAMES).sort();
  return `${method.toUpperCase()} ${parsed.origin}${path}${names.length ? `?${names.join('&')}` : ''}`;
}

/**
 * One path segment as a pattern: `{id}` for digits, `{uuid}` for a UUID, `{hex}` for 16 or more
 * hexadecimal digits (with at least one digit: `deadbeefcafebabe` is a word too), else itself.
 *
 * @example
 * segmentPattern('3f2504e0-4f89-11d3-9a0c-0305e82c3301'); // '{uuid}'
 */
export function segmentPattern(segment: string): string {
  if (segment.length === 0) return segment;
  if (allOf(segment, isDigit)) return '{id}';
  if (isUuid(segment)) return '{uuid}';
  if (segment.length >= MIN_HEX_ID && allOf(segment, isHex) && [...segment].some((c) => isDigit(c))) return '{hex}';
  return segment;
}

function isUuid(segment: string): boolean {
  if (segment.length !== 36) return false;
  for (let i = 0; i < 36; i++) {
    const c = segment.charAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23 ? c !== '-' : !isHex(c)) return false;
  }
  return true;
}

function allOf(text: string, test: (c: string) => boolean): boolean {
  for (const c of text) if (!test(c)) return false;
  return true;
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

function isHex(c: string): boolean {
  return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
