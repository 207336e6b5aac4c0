import { MultiAuthError } from '../../core/errors.js';
import type { Redactor } from '../../core/redactor.js';
import { compileUserRegex } from '../../core/regex.js';
import { redactedUrl } from '../../core/urls.js';
import type { Plan, PlanUser, PlanValidation } from '../../compile/index.js';
import { planCertificates } from '../http/client-certificates.js';
import { newCookieJar } from '../http/cookie-jar.js';
import { DEFAULT_TIMEOUT_SECONDS } from '../http/limits.js';
import type { RetryPolicy } from '../http/retry.js';
import { headerValues } from '../http/status-error.js';
import { FORM_AGAIN_HINT, bodyLines, contentTypeOf, showsPasswordForm } from '../http/excerpt.js';
import { bearerRefusal } from '../http/www-authenticate.js';
import type { SignInEvent } from './sign-in-events.js';
import { sendRequest } from '../http/transport.js';
import type { HeaderPair } from '../http/observation.js';
import { applySession } from '../session/apply.js';
import type { Session } from '../session/session.js';

/** The body is matched on its first this many characters: a check page is small, a regex stays bounded. */
const MATCHED_CHARS = 1024 * 1024;

/** What {@link checkSession} needs besides the plan, the user and the session. */
export interface CheckOptions {
  redactor: Redactor;
  retry?: RetryPolicy;
  /** The body of the sign-in's last response, when the check follows a sign-in: the error quotes it too. */
  signInBody?: string;
  /** Told the check's request, status and time (`multiauth login --verbose`). */
  onEvent?: (event: SignInEvent) => void;
}

/**
 * Runs the user's session check (`validation`): its request, sent with `session` applied as
 * `authedRequest` sends it (redirects not followed: a redirect to a login page is an answer), must
 * get an accepted status (default any 2xx) and a body that matches `match` and not `not_match`.
 * Nothing happens for a user without a check, or for a digest user (its check would need a
 * challenge answered).
 *
 * @throws MultiAuthError `AUTH_VALIDATION` naming the check's request, its status and a redacted
 *   excerpt of its body (and of the sign-in's last response, when given); `AUTH_NETWORK` /
 *   `AUTH_TIMEOUT` when it cannot be sent.
 * @example
 * await checkSession(plan, user, session, { redactor });
 */
export async function checkSession(plan: Plan, user: PlanUser, session: Session, options: CheckOptions): Promise<void> {
  const check = user.validation;
  if (!check || session.digest) return;
  const request = applySession(session, checkRequest(check));
  const started = performance.now();
  const observation = await sendRequest(
    { method: request.method, url: request.url, headers: request.headers, ...(request.body === undefined ? {} : { body: request.body }) },
    {
      timeoutMs: DEFAULT_TIMEOUT_SECONDS * 1000,
      followRedirects: 0,
      insecure: false,
      ...(plan.proxy === undefined ? {} : { proxy: plan.proxy }),
      jar: newCookieJar(),
      ...(options.retry ? { retry: options.retry } : {}),
      ...(user.mtls && plan.mtls.length ? { clientCertificates: planCertificates(plan) } : {}),
    },
  );
  const response = observation.responses.at(-1);
  const status = response?.status ?? 0;
  const body = response?.body ?? '';
  const failure = judge(check, status, body.slice(0, MATCHED_CHARS));
  options.onEvent?.({ kind: 'check', method: check.method, url: redactedUrl(check.url), status, ms: performance.now() - started, ok: !failure });
  if (!failure) return;
  // A token the server knows but finds lacking (a scope, a role) is no wrong password.
  const refusal = response && (status === 401 || status === 403) ? bearerRefusal(headerValues(response, 'www-authenticate')) : undefined;
  throw new MultiAuthError('AUTH_VALIDATION', `the session check failed: ${failure}`, {
    path: check.origin,
    context: { user: user.name, ...(user.procedure === undefined ? {} : { procedure: user.procedure }), method: check.method, url: redactedUrl(check.url), status },
    details: [
      ...(refusal ? [`the server says: ${options.redactor.redact(refusal.description)}`] : []),
      ...bodyLines(body, options.redactor, 'body', response && contentTypeOf(response)),
      ...(options.signInBody === undefined ? [] : bodyLines(options.signInBody, options.redactor, 'the sign-in\'s last response')),
    ],
    // A sign-in that ended on its own form was refused, whatever the check then got.
    hint: refusal?.hint ?? (options.signInBody !== undefined && showsPasswordForm(options.signInBody) ? FORM_AGAIN_HINT : status === 403
      ? 'The server knows the session but refuses this user the check\'s URL: the user may lack a role or scope it needs, or the check asks for more than this user may see (pick a URL every user may read).'
      : 'The sign-in did not give a working session: check the user\'s credentials (a login page may answer 200 to a wrong password), or the check\'s url, status and match.'),
  });
}

/**
 * The check's request before the session is applied: its headers, and its body as text (JSON
 * serialised, with `Content-Type: application/json` unless a header says otherwise), so that the
 * session's body rules (a JSON-RPC `auth` member) apply to it as to any request.
 */
function checkRequest(check: PlanValidation): { method: string; url: string; headers: HeaderPair[]; body?: string } {
  const headers: HeaderPair[] = (check.headers ?? []).map(([name, value]): HeaderPair => [name, value]);
  if (check.body === undefined) return { method: check.method, url: check.url, headers };
  if (typeof check.body === 'string') return { method: check.method, url: check.url, headers, body: check.body };
  if (!headers.some(([name]) => name.toLowerCase() === 'content-type')) headers.push(['Content-Type', 'application/json']);
  return { method: check.method, url: check.url, headers, body: JSON.stringify(check.body) };
}

function judge(check: PlanValidation, status: number, body: string): string | undefined {
  const accepted = check.status ? check.status.includes(status) : status >= 200 && status < 300;
  if (!accepted) return `HTTP ${status}, expected ${check.status ? check.status.join(' or ') : 'a 2xx status'}`;
  if (check.match !== undefined && !compileUserRegex(check.match).test(body)) return `the body does not match "${check.match}"`;
  if (check.notMatch !== undefined && compileUserRegex(check.notMatch).test(body)) return `the body matches not_match "${check.notMatch}"`;
  return undefined;
}
