import { MultiAuthError, type AuthContext } from '../../core/errors.js';
import type { Redactor } from '../../core/redactor.js';
import type { Observation, ObservedResponse, RetrySummary } from './observation.js';
import { describeRetries, parseRetryAfter, retryAfterOf } from './retry.js';
import { bearerRefusal } from './www-authenticate.js';
import { bodyLines, contentTypeOf, serverSaysLine } from './excerpt.js';
import { describeJsonRefusal } from './json-refusal.js';

export { BODY_EXCERPT_CHARS, bodyExcerpt } from './excerpt.js';

/**
 * Fails a sign-in step whose final response has a status of 400 or more (DESIGN.md "Requests"):
 * `AUTH_HTTP_STATUS` naming the status (and, through `context`, the user, procedure, step, method
 * and URL), with the response body as {@link bodyLines} shows it (an HTML page's error message and
 * readable text; anything else cut short), passed through the redactor (servers echo what they were sent, passwords included). `describe` says
 * what the body means in the protocol's terms (an OAuth `error` code), shown first when it knows;
 * else a JSON body's refusal members ({@link describeJsonRefusal}) are.
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
  const meaning = (response.body ? describe?.(response.body) ?? undefined : undefined) ?? refusal?.description ?? describeJsonRefusal(response.body ?? '');
  const retries = describeRetries(retry);
  return new MultiAuthError('AUTH_HTTP_STATUS', `the server answered HTTP ${response.status}${reason(response.status)}${retries.suffix}`, {
    context: { ...context, status: response.status },
    details: [
      ...(meaning ? [serverSaysLine(meaning, redactor)] : []),
      ...bodyLines(response.body ?? '', redactor, 'response body', contentTypeOf(response)),
      ...retries.details,
    ],
    hint: refusal?.hint ?? (response.status === 429 ? rateLimitedHint(response, retry) : hintFor(response.status)),
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

/** A 429 says what the server asked for, what was done, and what to do: the account's limit is what is at stake. */
function rateLimitedHint(response: ObservedResponse, retry: RetrySummary | undefined): string {
  const raw = retryAfterOf(response.headers);
  const ms = parseRetryAfter(raw, Date.now());
  const asked = ms === undefined
    ? `did not say when to come back${raw === undefined ? ' (no Retry-After)' : ` (a Retry-After it could not read: "${raw}")`}`
    : `asked to come back in ${ms >= 120_000 ? `${Math.ceil(ms / 60_000)} min` : `${Math.ceil(ms / 1000)} s`} (Retry-After: ${raw})`;
  const tried = retry?.failures.some((f) => f.failure === 'HTTP 429') ? 'it was retried once, as late as asked' : 'it was not retried';
  return `The server is limiting sign-ins and ${asked}; ${tried}, and this run does not try this user again. ` +
    'Wait that long before signing in again, and sign in less often: keep the session cache on (sessions are reused across tests and runs), ' +
    'and give a user that other runs or tools also sign in an account of its own.';
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
  if (status >= 500) return 'The server failed: check its logs; the request may also be malformed.';
  return 'Check the operation\'s request against what the server expects.';
}
