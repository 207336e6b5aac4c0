import type { APIRequestContext } from 'playwright-core';
import type { Session } from '../runtime/session.js';
import { applySessionBody, bodyKind } from '../runtime/apply-body.js';
import { hasBodyRules, withSessionBody, withSessionParams } from './request-injection.js';

type Options = Record<string, unknown> | undefined;
const METHODS = ['fetch', 'get', 'post', 'put', 'patch', 'delete', 'head'] as const;

/**
 * Wraps an `APIRequestContext` so every request also carries the session's query parameters and
 * body injections: Playwright has defaults for headers and cookies (`extraHTTPHeaders`,
 * `storageState`) but none for those two. Everything else of the context is untouched.
 *
 * Cookies without a domain (cookie injections) are added for each host the first time a request
 * goes there, since the context's jar needs a domain.
 *
 * @example
 * const request = wrapRequestContext(await playwright.request.newContext({ baseURL }), session, baseURL);
 * await request.get('/whoami'); // ?access_token=… added when the session injects into the query
 */
export function wrapRequestContext(context: APIRequestContext, session: Session, baseURL?: string): APIRequestContext {
  const needsQuery = Object.keys(session.query).length > 0;
  const needsBody = hasBodyRules(session);
  const loose = session.cookies.filter((c) => !c.domain);
  if (!needsQuery && !needsBody && loose.length === 0) return context;
  const seeded = new Set<string>();

  const seed = async (target: unknown): Promise<void> => {
    if (loose.length === 0 || typeof target !== 'string') return;
    let host: string;
    try {
      host = new URL(target, 'http://relative.invalid').hostname;
    } catch {
      return;
    }
    if (host === 'relative.invalid' || seeded.has(host)) return;
    seeded.add(host);
    await context.addCookies(loose.map((c) => ({ name: c.name, value: c.value, domain: host, path: c.path ?? '/' })));
  };

  const rewrite = (options: Options): Options => {
    const out: Record<string, unknown> = { ...options };
    if (needsQuery) out.params = withSessionParams(session, out.params);
    if (needsBody) {
      if (typeof out.data === 'string') out.data = rewriteTextBody(session, out.data, out.headers);
      else if (out.data !== undefined && !Buffer.isBuffer(out.data)) out.data = withSessionBody(session, out.data, 'json');
      else if (out.form !== undefined && !(out.form instanceof FormData)) out.form = withSessionBody(session, out.form, 'form');
    }
    return out;
  };

  return new Proxy(context, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || !(METHODS as readonly string[]).includes(property)) {
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return async (url: unknown, options: Options) => {
        await seed(typeof url === 'string' ? resolveAgainst(url, baseURL) : undefined);
        return (value as (u: unknown, o: Options) => Promise<unknown>).call(target, url, rewrite(options));
      };
    },
  });
}

function resolveAgainst(url: string, base: string | undefined): string {
  try {
    return new URL(url, base).toString();
  } catch {
    return url;
  }
}

function rewriteTextBody(session: Session, text: string, headers: unknown): string {
  const pairs = Object.entries((headers ?? {}) as Record<string, string>);
  return applySessionBody(text, bodyKind(pairs, text), session.body);
}
