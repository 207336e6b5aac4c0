import type { APIRequestContext, APIResponse } from 'playwright-core';
import { answerChallenge } from '../runtime/protocols/digest/index.js';
import type { DigestSessionState, Session } from '../runtime/session/session.js';
import { applySessionBody, bodyKind } from '../runtime/session/apply-body.js';
import { hasBodyRules, headerRecord, withSessionBody, withSessionParams } from './request-injection.js';
import { toStorageState } from './storage-state.js';

/**
 * The current session of a user: a memo hit while it is valid, refreshed (once across workers)
 * when it is about to expire. Asked before every request, so a long test never sends an expired
 * token.
 */
export type LiveSession = () => Promise<Session>;

type Options = Record<string, unknown> | undefined;
const METHODS = ['fetch', 'get', 'post', 'put', 'patch', 'delete', 'head'] as const;

/**
 * Wraps an `APIRequestContext` so every request carries the user's current session: headers
 * (the request's own headers win), query parameters and body injections (Playwright has no
 * defaults for those two), and cookies. Everything else of the context is untouched.
 *
 * Cookies without a domain (cookie injections) are added for each host the first time a request
 * goes there, since the context's jar needs a domain. Digest users' requests are answered
 * (pre-emptively with the next nonce count when possible, else by answering the 401 once):
 * Playwright's request context only answers Basic challenges.
 *
 * @example
 * const request = wrapRequestContext(await playwright.request.newContext({ baseURL }), live, baseURL);
 * await request.get('/whoami'); // Authorization, ?access_token=… as the session says
 */
export function wrapRequestContext(context: APIRequestContext, live: LiveSession, baseURL?: string): APIRequestContext {
  let current: Session | undefined;
  let digest: DigestSessionState | undefined;
  const seeded = new Set<string>();

  const session = async (): Promise<Session> => {
    const latest = await live();
    if (latest !== current) {
      // A refreshed session brings new cookie values; the context's jar must learn them.
      if (current !== undefined) await context.addCookies(toStorageState(latest, []).cookies);
      current = latest;
      digest = latest.digest;
      seeded.clear();
    }
    return latest;
  };

  const seed = async (s: Session, target: string): Promise<void> => {
    const loose = s.cookies.filter((c) => !c.domain);
    if (loose.length === 0) return;
    const host = hostOf(target);
    if (host === undefined || seeded.has(host)) return;
    seeded.add(host);
    await context.addCookies(loose.map((c) => ({ name: c.name, value: c.value, domain: host, path: c.path ?? '/' })));
  };

  return new Proxy(context, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || !(METHODS as readonly string[]).includes(property)) {
        return typeof value === 'function' ? value.bind(target) : value;
      }
      const send = (url: unknown, options: Options) => (value as (u: unknown, o: Options) => Promise<APIResponse>).call(target, url, options);
      return async (url: unknown, options: Options) => {
        const s = await session();
        const absolute = typeof url === 'string' ? resolveAgainst(url, baseURL) : undefined;
        if (absolute !== undefined) await seed(s, absolute);
        const rewritten = rewrite(s, options);
        if (!digest || absolute === undefined) return send(url, rewritten);
        const method = (property === 'fetch' ? String(rewritten?.method ?? 'GET') : property).toUpperCase();
        // Pre-emptive only when the URL is final here: Playwright appends `params` itself, and a
        // digest `uri` that differs from the request line is refused.
        const early = rewritten?.params === undefined ? answerChallenge(digest, { method, url: absolute }) : undefined;
        if (early) digest = early.state;
        const response = await send(url, early ? withHeader(rewritten, 'Authorization', early.authorization) : rewritten);
        if (response.status() !== 401) return response;
        const challenge = response.headersArray().filter((h) => h.name.toLowerCase() === 'www-authenticate').map((h) => h.value);
        const answer = answerChallenge(digest, { method, url: response.url() }, challenge);
        if (!answer) return response;
        digest = answer.state;
        return send(url, withHeader(rewritten, 'Authorization', answer.authorization));
      };
    },
  });
}

function rewrite(session: Session, options: Options): Options {
  const out: Record<string, unknown> = { ...options };
  const own = (options?.headers ?? {}) as Record<string, string>;
  const ownNames = new Set(Object.keys(own).map((n) => n.toLowerCase()));
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(headerRecord(session))) if (!ownNames.has(name.toLowerCase())) headers[name] = value;
  out.headers = { ...headers, ...own };
  if (Object.keys(session.query).length > 0) out.params = withSessionParams(session, out.params);
  if (hasBodyRules(session)) {
    if (typeof out.data === 'string') out.data = applySessionBody(out.data, bodyKind(Object.entries(own), out.data), session.body);
    else if (out.data !== undefined && !Buffer.isBuffer(out.data)) out.data = withSessionBody(session, out.data, 'json');
    else if (out.form !== undefined && !(out.form instanceof FormData)) out.form = withSessionBody(session, out.form, 'form');
  }
  return out;
}

function withHeader(options: Options, name: string, value: string): Options {
  return { ...options, headers: { ...(options?.headers as Record<string, string> | undefined), [name]: value } };
}

function resolveAgainst(url: string, base: string | undefined): string | undefined {
  try {
    return new URL(url, base).toString();
  } catch {
    return undefined;
  }
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}
