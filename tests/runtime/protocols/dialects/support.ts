import type { HeaderPair, Observation } from '../../../../src/runtime/http/observation.js';

/**
 * An observation of one POST answered with `status` and `body` (a recorded exchange).
 *
 * @example
 * recorded(400, { error: 'invalid_grant' });
 */
export function recorded(status: number, body: unknown, headers: HeaderPair[] = []): Observation {
  const url = 'https://auth.example.test/token';
  return {
    requests: [{ method: 'POST', url, headers: [] }],
    responses: [{ url, status, headers, body: typeof body === 'string' ? body : JSON.stringify(body) }],
    cookies: [],
    urls: [url],
  };
}

/** User, procedure and step the recorded exchanges belong to. */
export const where = { user: 'alice', procedure: 'preset-users', step: 0 };
