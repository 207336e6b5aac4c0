import type { APIRequestContext, Request } from 'playwright-core';
import type { OutgoingRequest } from '../runtime/index.js';
import type { OutgoingBody } from '../runtime/index.js';
import { headerPairs, playwrightHeaders } from './headers.js';

/** The options of `APIRequestContext.fetch`: every method of the context takes a subset. */
export type FetchOptions = NonNullable<Parameters<APIRequestContext['fetch']>[1]>;

/** One call of an `APIRequestContext` method, read as the request it sends. */
export interface ApiCall {
  request: OutgoingRequest<OutgoingBody>;
  /** The caller's options the request does not stand for (timeouts, a Buffer or multipart body...). */
  rest: FetchOptions;
}

type FormFields = { [key: string]: string | number | boolean };

/**
 * Reads a call such as `request.post('/items', { params, headers, data })` as the request Playwright
 * would send, so that `applySession` can decide what it carries: the URL resolved against
 * `baseURL` with `params` added as Playwright adds them, the method (`fetch` takes it from its
 * options or its `Request`), the headers (the options', else the `Request`'s), and a body that
 * session rules may change (`data` as text or JSON, `form` fields). Buffer, `FormData` and multipart
 * bodies are passed on untouched. Undefined when the URL does not resolve: Playwright then says why.
 *
 * @example
 * readApiCall('post', '/items?x=1', { data: { a: 1 } }, 'http://127.0.0.1:4010');
 * // { request: { method: 'POST', url: 'http://127.0.0.1:4010/items?x=1', headers: [], body: { json: { a: 1 } } }, rest: {} }
 */
export function readApiCall(method: string, target: string | Request, options: FetchOptions | undefined, baseURL: string | undefined): ApiCall | undefined {
  const from = typeof target === 'string' ? undefined : target;
  const { params, headers, data, form, method: optionMethod, ...others } = options ?? {};
  const rest: FetchOptions = others;
  let url: URL;
  try {
    url = new URL(typeof target === 'string' ? target : target.url(), baseURL);
  } catch {
    return undefined;
  }
  addParams(url, params);
  const request: OutgoingRequest<OutgoingBody> = {
    method: (method === 'fetch' ? optionMethod || from?.method() || 'GET' : method).toUpperCase(),
    url: url.toString(),
    headers: headerPairs(headers ?? from?.headers()),
  };
  const call: ApiCall = { request, rest };
  if (data !== undefined) {
    if (typeof data === 'string') request.body = data;
    else if (Buffer.isBuffer(data)) rest.data = data;
    else request.body = { json: data };
  } else if (form !== undefined) {
    if (form instanceof FormData) rest.form = form;
    else request.body = { form };
  } else if (rest.multipart === undefined && from) {
    // Playwright sends a Request's own body when the options give none.
    const buffer = from.postDataBuffer();
    if (buffer) rest.data = buffer;
  }
  return call;
}

/**
 * The arguments of `APIRequestContext.fetch` that send `applied` (the call's request after
 * `applySession`), the call's other options kept.
 *
 * @example
 * const [url, options] = fetchArguments(call, applySession(session, call.request));
 * await context.fetch(url, options);
 */
export function fetchArguments(call: ApiCall, applied: OutgoingRequest<OutgoingBody>): [string, FetchOptions] {
  const options: FetchOptions = { ...call.rest, method: applied.method, headers: playwrightHeaders(applied.headers) };
  const { body } = applied;
  if (typeof body === 'string') options.data = body;
  else if (body !== undefined && 'json' in body) options.data = body.json;
  else if (body !== undefined) options.form = body.form as FormFields;
  return [applied.url, options];
}

/** `params` added to the URL exactly as Playwright adds them, so the URL seen here is the one sent. */
function addParams(url: URL, params: FetchOptions['params']): void {
  if (params === undefined) return;
  if (typeof params === 'string' || params instanceof URLSearchParams) {
    const encoded = params.toString().replace(/^\?/, '');
    if (encoded) url.search = url.search ? `${url.search}&${encoded}` : encoded;
    return;
  }
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.append(name, String(value));
}
