import { MultiAuthError } from '../../../../src/core/errors.js';
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

/**
 * The MultiAuthError `fn` throws; fails the test when it throws nothing or something else.
 *
 * @example
 * thrown(() => checkDialectResponse('oauth', observation, where)).code; // 'AUTH_HTTP_STATUS'
 */
export function thrown(fn: () => void): MultiAuthError {
  try {
    fn();
  } catch (error) {
    if (error instanceof MultiAuthError) return error;
    throw error;
  }
  throw new Error('expected a MultiAuthError, nothing was thrown');
}

/** User, procedure and step the recorded exchanges belong to. */
export const where = { user: 'alice', procedure: 'preset-users', step: 0 };
