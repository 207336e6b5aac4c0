import { cloneJson, isPlainObject } from '../core/json-path.js';
import type { Exchange } from './exchanges.js';
import { header } from './exchanges.js';
import { isTransportHeader, looksSecret, splitScheme } from './heuristics.js';
import { FORBIDDEN_KEYS } from './json-safe.js';

/** What a recorded value becomes in the draft: a template, an environment reference, or itself. */
export type Replace = (value: string, field: string) => string;

/** A drafted HTTP request: the format's names, maps of name -> values. */
export interface DraftRequest {
  url: string;
  method: string;
  headers: Array<[string, string]>;
  cookies: Array<[string, string]>;
  query: Array<[string, string]>;
  body?: unknown;
}

/**
 * The request of a step, from its recording: the URL without its query (the query's values each
 * through `replace`), the body with each value through `replace` (a form as an object, sent
 * form-encoded; JSON as JSON), `Content-Type` when there is a body, and the headers and cookies
 * whose value `replace` turns into a template (a CSRF header; cookies that `jar`, the names set by
 * earlier steps, sends anyway are left out); nothing else the browser added.
 *
 * @example
 * draftRequest(exchange, (value, field) => (field === 'password' ? '{{password}}' : value));
 */
export function draftRequest(exchange: Exchange, replace: Replace, jar: ReadonlySet<string> = new Set()): DraftRequest {
  const url = `${exchange.url.origin}${exchange.url.pathname}`;
  const query = [...exchange.url.searchParams].map(([name, value]): [string, string] => [name, replace(value, name)]);
  const headers: Array<[string, string]> = [];
  const cookies: Array<[string, string]> = [];
  const body = exchange.requestBody;
  let drafted: unknown;
  if (body?.form) {
    const form: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
    for (const { name, value } of body.form) {
      if (FORBIDDEN_KEYS.has(name)) continue;
      const next = replace(value, name);
      const had = form[name];
      form[name] = had === undefined ? next : Array.isArray(had) ? [...had, next] : [had, next];
    }
    drafted = { ...form };
    headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
  } else if (body?.json !== undefined) {
    drafted = replaceLeaves(cloneJson(body.json), '', replace);
    headers.push(['Content-Type', body.mime && body.mime.includes('json') ? body.mime : 'application/json']);
  } else if (body && body.text !== '') {
    drafted = looksSecret(body.text) ? replace(body.text, 'body') : body.text;
    const type = header(exchange.requestHeaders, 'content-type');
    if (type) headers.push(['Content-Type', type]);
  }
  for (const h of exchange.requestHeaders) {
    if (isTransportHeader(h.name)) continue;
    const { prefix, value } = splitScheme(h.value);
    if (prefix?.toLowerCase() === 'basic') continue;
    const next = replace(value, h.name);
    if (next !== value) headers.push([h.name, prefix ? `${prefix} ${next}` : next]);
    else if (/^x-requested-with$/i.test(h.name)) headers.push([h.name, h.value]);
  }
  for (const c of exchange.requestCookies) {
    // A cookie an earlier step's answer set is sent by the sign-in's cookie jar.
    if (jar.has(c.name)) continue;
    const next = replace(c.value, c.name);
    if (next !== c.value && next.startsWith('{{')) cookies.push([c.name, next]);
  }
  return { url, method: exchange.method, headers, cookies, query, ...(drafted !== undefined && { body: drafted }) };
}

function replaceLeaves(value: unknown, path: string, replace: Replace): unknown {
  if (typeof value === 'string') return replace(value, path);
  if (Array.isArray(value)) return value.map((item, i) => replaceLeaves(item, path ? `${path}.${i}` : String(i), replace));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (FORBIDDEN_KEYS.has(key)) continue;
      out[key] = replaceLeaves(item, path ? `${path}.${key}` : key, replace);
    }
    return out;
  }
  return value;
}
