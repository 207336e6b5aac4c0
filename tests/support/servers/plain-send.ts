import { request } from 'undici';
import type { ResolvedRequest } from '../../../src/runtime/http/types.js';
import type { HeaderPair, Observation } from '../../../src/runtime/http/observation.js';

/**
 * A minimal transport for tests of protocol code: one undici request, no redirects, no cookie
 * jar; the observation holds the request as sent and the response with its text body.
 *
 * @example
 * const observation = await plainSend({ method: 'GET', url, headers: [] });
 * observation.responses[0]?.status; // 401
 */
export async function plainSend(req: ResolvedRequest): Promise<Observation> {
  const response = await request(req.url, {
    method: req.method as 'GET',
    headers: req.headers.flat(),
    body: req.body ?? null,
  });
  const headers: HeaderPair[] = Object.entries(response.headers).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : value === undefined ? [] : [value]).map((v): HeaderPair => [name, v]),
  );
  const body = await response.body.text();
  return {
    requests: [{ method: req.method, url: req.url, headers: req.headers, ...(req.body !== undefined && { body: req.body }) }],
    responses: [{ url: req.url, status: response.statusCode, headers, body }],
    cookies: [],
    urls: [req.url],
  };
}

/**
 * A plain POST and its answer (text, and the JSON parsed when it is JSON); for tests that talk to
 * token endpoints directly.
 *
 * @example
 * const { status, json } = await postText(url, { 'content-type': 'application/json' }, '{}');
 */
export async function postText(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; text: string; json: unknown }> {
  const response = await request(url, { method: 'POST', headers, body });
  const text = await response.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, text, json };
}
