import type { AuthContext } from '../../../core/errors.js';
import type { Observation } from '../../http/observation.js';

/** How many characters of one server message an error shows. */
export const MESSAGE_CHARS = 300;

/**
 * A server's text for an error line: whitespace runs collapsed, cut to `limit` characters.
 * Secrets are the caller's business (the runner redacts every error it rethrows).
 *
 * @example
 * cut('a\n  very long message', 6); // 'a very…'
 */
export function cut(text: string, limit = MESSAGE_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > limit ? `${flat.slice(0, limit)}…` : flat;
}

/**
 * A response body as a JSON object: parses text, passes objects through; anything else
 * (arrays, HTML, invalid JSON, absent) is undefined.
 *
 * @example
 * jsonObject('{"error":"invalid_grant"}'); // { error: 'invalid_grant' }
 * jsonObject('<html>'); // undefined
 */
export function jsonObject(body: unknown): Record<string, unknown> | undefined {
  let value = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch {
      return undefined;
    }
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * The error context of a step's final exchange: the caller's `where` plus method, URL and status.
 *
 * @example
 * exchangeContext(observation, { user: 'alice', step: 0 }); // { user: 'alice', step: 0, method: 'POST', url, status: 200 }
 */
export function exchangeContext(observation: Observation, where: AuthContext): AuthContext {
  const request = observation.requests.at(-1);
  const response = observation.responses.at(-1);
  return {
    ...where,
    ...(request && { method: request.method }),
    ...(response && { url: response.url, status: response.status }),
  };
}
