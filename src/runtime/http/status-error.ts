import { MultiAuthError, type AuthContext } from '../../core/errors.js';
import type { Redactor } from '../../core/redactor.js';
import type { Observation, ObservedResponse, RetrySummary } from './observation.js';
import { describeRetries } from './retry.js';
import { bearerRefusal } from './www-authenticate.js';
import { bodyExcerpt, bodyLines, contentTypeOf } from './excerpt.js';

export { BODY_EXCERPT_CHARS, bodyExcerpt } from './excerpt.js';

/**
 * Fails a sign-in step whose final response has a status of 400 or more (DESIGN.md "Requests"):
 * `AUTH_HTTP_STATUS` naming the status (and, through `context`, the user, procedure, step, method
 * and URL), with the response body as {@link bodyLines} shows it (an HTML page's error message and
 * readable text; anything else cut short), passed through the redactor (servers echo what they were sent, passwords included). `describe` says
 * what the body means in the protocol's terms (an OAuth `error` code), shown first when it knows.
 *
 * @example
 * assertSuccessStatus(observation, redactor, { user: 'alice', procedure: 'login', step: 0, method: 'POST', url });
 */
export function assertSuccessStatus(
  observation: Observation,
  redactor: Redactor,
  context: AuthContext,
  describe?: (body: string) => string | undefined,
): void {
  const response = observation.responses.at(-1);
  if (response && response.status >= 400) throw httpStatusError(response, redactor, context, describe, observation.retry);
}

/**
 * The `AUTH_HTTP_STATUS` error for one response (see {@link assertSuccessStatus}); `retry` says how
 * often the transport tried (`... HTTP 429 (Too Many Requests) after 3 attempts`).
 *
 * @example
 * throw httpStatusError(response, redactor, { user: 'alice', method: 'POST', url });
 */
export function httpStatusError(
  response: ObservedResponse,
  redactor: Redactor,
  context: AuthContext,
  describe?: (body: string) => string | undefined,
  retry?: RetrySummary,
): MultiAuthError {
  const refusal = response.status === 401 || response.status === 403 ? bearerRefusal(headerValues(response, 'www-authenticate')) : undefined;
  const meaning = (response.body ? describe?.(response.body) : undefined) ?? refusal?.description;
  const retries = describeRetries(retry);
  return new MultiAuthError('AUTH_HTTP_STATUS', `the server answered HTTP ${response.status}${reason(response.status)}${retries.suffix}`, {
    context: { ...context, status: response.status },
    details: [
      ...(meaning ? [`the server says: ${bodyExcerpt(meaning, redactor)}`] : []),
      ...bodyLines(response.body ?? '', redactor, 'response body', contentTypeOf(response)),
      ...retries.details,
    ],
    hint: refusal?.hint ?? hintFor(response.status),
  });
}

/**
 * Every value of one response header, name compared case-insensitively.
 *
 * @example
 * headerValues(response, 'www-authenticate'); // ['Bearer error="invalid_token"']
 */
export function headerValues(response: ObservedResponse, name: string): string[] {
  return response.headers.filter(([key]) => key.toLowerCase() === name).map(([, value]) => value);
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

function reason(status: number): string {
  const text = REASONS[status];
  return text ? ` (${text})` : '';
}

function hintFor(status: number): string {
  if (status === 401) {
    return 'Check the user\'s credentials (username, password, secrets) and that the request sends them where the server expects them.';
  }
  if (status === 403) {
    return 'The server refuses this user here: check the user\'s credentials, and that the user may do this (a role or a scope it lacks is also answered 403).';
  }
  if (status === 404 || status === 405) return 'Check the operation\'s URL and method.';
  if (status === 400 || status === 415 || status === 422) {
    return 'Check the request body and its Content-Type against what the server expects (the response body above may say which field is wrong).';
  }
  if (status === 429) return 'The server is rate-limiting sign-ins: sign in less often (sessions are cached) or wait.';
  if (status >= 500) return 'The server failed: check its logs; the request may also be malformed.';
  return 'Check the operation\'s request against what the server expects.';
}
