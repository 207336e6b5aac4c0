import type { Exchange } from './exchanges.js';
import { isTransportHeader, splitScheme } from './heuristics.js';
import { bodyFields } from './sign-in.js';

/** A value a request carried: in a header (after its scheme), a cookie, a body field or the query. */
export interface Carried {
  where: 'header' | 'cookie' | 'body' | 'query';
  /** Header, cookie, body field (form name or JSON dot path) or query parameter name. */
  name: string;
  /** The header's scheme (`Bearer`), when the value follows one. */
  prefix?: string;
  value: string;
}

/**
 * Everything a request carried that could have come from an earlier answer: headers other than
 * the ones a client sends by itself (an `Authorization` scheme split off; Basic is the user's own),
 * cookies, body fields and query parameters.
 *
 * @example
 * carriedBy(exchange); // [{ where: 'header', name: 'Authorization', prefix: 'Bearer', value: 'eyJ...' }, ...]
 */
export function carriedBy(exchange: Exchange): Carried[] {
  const out: Carried[] = [];
  for (const h of exchange.requestHeaders) {
    if (isTransportHeader(h.name)) continue;
    const { prefix, value } = splitScheme(h.value);
    if (prefix?.toLowerCase() === 'basic' || prefix?.toLowerCase() === 'digest') continue;
    out.push({ where: 'header', name: h.name, value, ...(prefix && { prefix }) });
  }
  for (const c of exchange.requestCookies) out.push({ where: 'cookie', name: c.name, value: c.value });
  for (const f of bodyFields(exchange)) out.push({ where: 'body', name: f.name, value: f.value });
  for (const [name, value] of exchange.url.searchParams) out.push({ where: 'query', name, value });
  return out;
}
