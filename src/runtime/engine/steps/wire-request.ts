import type { PlanCredentials, RequestTemplate } from '../../../compile/index.js';
import type { HeaderPair } from '../../http/observation.js';
import { encodeCookieHeader, appendQuery, mergeCredentials } from '../../session/merge.js';
import { basicAuthorization } from '../../../core/basic-auth.js';
import { isPlainObject } from '../../../core/json-path.js';
import { expandTemplate, holdsTemplate, type SecretSink, type TemplateScope, type TemplateWhere } from '../../template/template.js';
import type { ResolvedRequest } from '../../http/types.js';
import { DEFAULT_FOLLOW_REDIRECTS, DEFAULT_TIMEOUT_SECONDS } from '../../http/limits.js';

/** A request ready to send and how to send it (the template's transport settings, defaults applied). */
export interface WireRequest {
  request: ResolvedRequest;
  timeoutMs: number;
  followRedirects: number;
  insecure: boolean;
  proxy?: string;
}

/**
 * Builds the request an operation sends (the "build" half of a step; pure): expands `{{var}}`
 * templates with `scope`, THEN merges the user's credentials (literal values: a `{{` in a password
 * stays as written), then encodes for the wire: query parameters appended to the URL, cookies in
 * one `Cookie` header (after any `Cookie` header written by hand), the body as text. A string body
 * is sent as is; a JSON value is sent as JSON (with `Content-Type: application/json` unless one is
 * set), or form-encoded when the `Content-Type` is `application/x-www-form-urlencoded`.
 * `defaultProxy` is the config's top-level `proxy`; `secrets` (the run's Redactor) is given every
 * value the templates derive from a secret.
 *
 * @example
 * const wire = buildWireRequest(op.request, { username: 'alice', password: 'pw' }, user.credentials,
 *   { user: 'alice', procedure: 'login', step: 0 });
 * wire.request; // { method: 'POST', url: 'http://127.0.0.1:4010/auth/token', headers: [...], body: '{"username":"alice",...}' }
 */
export function buildWireRequest(
  template: RequestTemplate,
  scope: TemplateScope,
  credentials: PlanCredentials,
  where: TemplateWhere,
  defaultProxy?: string,
  secrets?: SecretSink,
): WireRequest {
  const expanded = mergeCredentials(holdsTemplate(template) ? expandTemplate(template, scope, withRequestOrigin(template, scope, where, secrets), secrets) : template, credentials);
  const headers: HeaderPair[] = [];
  for (const { name, values } of expanded.headers) for (const value of values) headers.push([name, value]);
  // curl's `-u '{{user}}:{{password}}'` can only be encoded once the variables are known.
  if (expanded.basicAuth && !headers.some(([name]) => name.toLowerCase() === 'authorization')) {
    headers.push(['Authorization', basicAuthorization(expanded.basicAuth.username, expanded.basicAuth.password)]);
  }
  const cookie = encodeCookieHeader(expanded.cookies);
  if (cookie) appendCookie(headers, cookie);

  const request: ResolvedRequest = { method: expanded.method, url: appendQuery(expanded.url, expanded.query), headers };
  const body = encodeBody(expanded.body, headers);
  if (body !== undefined) request.body = body;

  const wire: WireRequest = {
    request,
    timeoutMs: (expanded.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
    followRedirects: expanded.followRedirects ?? DEFAULT_FOLLOW_REDIRECTS,
    insecure: expanded.insecure ?? false,
  };
  const proxy = expanded.proxy ?? defaultProxy;
  if (proxy) wire.proxy = proxy;
  return wire;
}

/**
 * `where` with the origin of the request's URL, computed only when a template asks
 * (`webauthn_assertion()` signs for it). The URL is expanded from its own template, with `where`
 * as given, so a URL cannot ask for its own origin.
 */
function withRequestOrigin(template: RequestTemplate, scope: TemplateScope, where: TemplateWhere, secrets: SecretSink | undefined): TemplateWhere {
  return {
    ...where,
    requestOrigin: () => {
      const url = template.url.includes('{{') ? expandTemplate(template.url, scope, { ...where, path: [...(where.path ?? []), 'url'] }, secrets) : template.url;
      try {
        return new URL(url).origin;
      } catch {
        return undefined;
      }
    },
  };
}

/** Adds cookies to the request's own `Cookie` header, or as a new one. */
function appendCookie(headers: HeaderPair[], cookie: string): void {
  const own = headers.find(([name]) => name.toLowerCase() === 'cookie');
  if (own) own[1] = own[1].trim() ? `${own[1]}; ${cookie}` : cookie;
  else headers.push(['Cookie', cookie]);
}

function encodeBody(body: unknown, headers: HeaderPair[]): string | undefined {
  if (body === undefined) return undefined;
  if (typeof body === 'string') return body;
  const contentType = headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  if (contentType?.toLowerCase().startsWith('application/x-www-form-urlencoded') && isPlainObject(body)) {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(body)) {
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) form.append(key, typeof item === 'string' ? item : JSON.stringify(item));
    }
    return form.toString();
  }
  if (!contentType) headers.push(['Content-Type', 'application/json']);
  return JSON.stringify(body);
}
