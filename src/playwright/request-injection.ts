import type { Session } from '../runtime/session/session.js';
import { isPlainObject, setPath } from '../core/json-path.js';
import { mergeBody } from '../runtime/session/merge.js';

/**
 * A session's headers as Playwright's `extraHTTPHeaders` record: several values of one name are
 * joined as HTTP allows (`, `).
 *
 * @example
 * headerRecord({ ...session, headers: { Accept: ['a', 'b'] } }); // { Accept: 'a, b' }
 */
export function headerRecord(session: Session): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, values] of Object.entries(session.headers)) out[name] = values.join(', ');
  return out;
}

/** Query parameters of the session added to a request's own `params`; the request's own names win. */
export function withSessionParams(session: Session, params: unknown): unknown {
  const names = Object.keys(session.query);
  if (names.length === 0) return params;
  const merged =
    params instanceof URLSearchParams
      ? new URLSearchParams(params)
      : typeof params === 'string'
        ? new URLSearchParams(params)
        : new URLSearchParams(
            Object.entries((params ?? {}) as Record<string, string | number | boolean>).map(([k, v]) => [k, String(v)]),
          );
  for (const name of names) {
    if (merged.has(name)) continue;
    for (const value of session.query[name] ?? []) merged.append(name, value);
  }
  return merged;
}

/** True when the session changes request bodies. */
export function hasBodyRules(session: Session): boolean {
  return session.body.merge !== undefined || Object.keys(session.body.set).length > 0;
}

/** True when requests need rewriting: headers, query parameters or body rules to add. */
export function needsRequestRewrite(session: Session): boolean {
  return Object.keys(session.headers).length > 0 || Object.keys(session.query).length > 0 || hasBodyRules(session);
}

/**
 * Applies the session's body rules to a structured body (what a spec passes as `data` or `form`):
 * the credentials body merges by the spec's rules, then each injection is set: by dot path into
 * JSON data, by field name into a form. A request without a body gets none.
 *
 * @example
 * withSessionBody(session, { name: 'x' }, 'json'); // { name: 'x', auth: { token: '…' } } for key auth.token
 */
export function withSessionBody(session: Session, body: unknown, kind: 'json' | 'form'): unknown {
  if (body === undefined || body === null) return body;
  const merged = session.body.merge === undefined ? body : mergeBody(body, session.body.merge);
  if (!isPlainObject(merged)) return merged;
  const out = structuredClone(merged);
  for (const [path, value] of Object.entries(session.body.set)) {
    if (kind === 'form') out[path] = value;
    else setPath(out, path, value);
  }
  return out;
}
