import { setTimeout as sleep } from 'node:timers/promises';
import { MultiAuthError } from '../../core/errors.js';
import { withContext } from '../../core/error-context.js';
import type { Observation, RetrySummary } from './observation.js';
import { causeCode } from './network-error.js';

/** How the transport retries a sign-in request that failed transiently (docs/errors.md "Retries"). */
export interface RetryPolicy {
  /** Retries after the first attempt; 0 = never retry. */
  retries: number;
  /** First backoff wait; each later one doubles; jitter takes each down to half of it at random. */
  baseDelayMs: number;
  /** The waits of one request together never exceed this (a longer `Retry-After` is not honoured). */
  maxTotalWaitMs: number;
}

/** Two retries (three attempts), 250 ms then 500 ms of backoff (less jitter), 5 s of waiting at most. */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({ retries: 2, baseDelayMs: 250, maxTotalWaitMs: 5_000 });

/** `MULTIAUTH_RETRIES` above this is taken as this. */
export const MAX_RETRIES = 5;

/**
 * Statuses that say the server did not handle the request and may later: rate limited (429), the
 * gateway could not reach the application (502), unavailable (503). Not 500 (a fault that repeats)
 * nor 504 (the application got the request and was slow: it may have handled it, and the time is spent).
 */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 502, 503]);

/** Connection failures that happen before the server handles anything: refused, reset or closed, DNS busy. */
export const RETRY_ERROR_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EAI_AGAIN', 'UND_ERR_SOCKET']);

/** A retry is not started unless this much of the request's timeout is left after the wait. */
const MIN_ATTEMPT_MS = 100;

/**
 * What a sign-in retried after a 429 keeps of the request's timeout for itself: a rate-limited
 * application is often a busy one, and a retry that times out spends the account's one retry.
 */
const RATE_LIMITED_ATTEMPT_MS = 5_000;

/** What one attempt got to before it ended; the transport fills it in as response headers arrive. */
export interface AttemptProgress {
  /** Responses whose headers arrived (every hop of a redirect chain counts). */
  responses: number;
  /** Status of the latest of them. */
  lastStatus?: number;
  /** Whether the current hop's response headers arrived (false while it waits for them). */
  answering?: boolean;
}

/** How one attempt ended: with an observation (any status), or with an error. */
export type AttemptOutcome =
  | { kind: 'response'; observation: Observation }
  | { kind: 'error'; error: MultiAuthError; progress: AttemptProgress };

/** Where a request's retries stand. */
export interface RetryState {
  /** Retries already made. */
  retriesDone: number;
  /** Milliseconds already waited between attempts. */
  waitedMs: number;
  now: number;
  /** When the request's own timeout runs out (Unix ms): no attempt starts past it. */
  deadline: number;
  /** Retries already made after a 429 (absent = 0): a sign-in is retried once at most after one. */
  rateLimitedRetries?: number;
}

/** Whether to try again, and after how long; or why not, when a transient failure is left as is. */
export type RetryDecision = { retry: true; failure: string; delayMs: number } | { retry: false; note?: string };

/**
 * The policy as the environment sets it: `MULTIAUTH_RETRIES=N` retries (0 turns retrying off, at
 * most {@link MAX_RETRIES}); anything else, or nothing, is {@link DEFAULT_RETRY_POLICY}.
 *
 * @example
 * retryPolicyFromEnv({ MULTIAUTH_RETRIES: '0' }).retries; // 0
 */
export function retryPolicyFromEnv(env: Record<string, string | undefined>): RetryPolicy {
  const raw = env.MULTIAUTH_RETRIES?.trim();
  if (raw === undefined || !/^\d+$/.test(raw)) return DEFAULT_RETRY_POLICY;
  return { ...DEFAULT_RETRY_POLICY, retries: Math.min(Number(raw), MAX_RETRIES) };
}

let processPolicy: RetryPolicy | undefined;

/**
 * The policy of this process: {@link retryPolicyFromEnv} of `process.env`, read on first use and
 * kept (reading the environment costs more than a sign-in's own bookkeeping, and it does not change
 * under a run). A sign-in that must differ passes its own policy (`authenticate`'s `retry`).
 *
 * @example
 * sendRequest(request, { ...options, retry: processRetryPolicy() });
 */
export function processRetryPolicy(): RetryPolicy {
  return (processPolicy ??= retryPolicyFromEnv(process.env));
}

/**
 * Milliseconds a `Retry-After` value asks to wait: delay-seconds, or an HTTP-date (0 when past);
 * `undefined` when absent or unreadable.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3
 * @example
 * parseRetryAfter('2', Date.now()); // 2000
 * parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('2015-10-21T07:27:59Z')); // 1000
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/^[A-Za-z]{3}/.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Decides whether an attempt's outcome is retried (pure; `random` gives the jitter). Retried: a
 * final status of {@link RETRY_STATUSES}, or an `AUTH_NETWORK` failure of {@link RETRY_ERROR_CODES}
 * before any response arrived; while retries are left, after `Retry-After` (when the server sent
 * one) or the backoff, provided the waits stay within `maxTotalWaitMs` and the next attempt starts
 * before the deadline. Never retried: other statuses (4xx credentials errors, 500, 504), TLS
 * errors, timeouts, redirect loops, and a connection that broke after the server answered.
 *
 * @example
 * decideRetry({ kind: 'response', observation }, { retriesDone: 0, waitedMs: 0, now, deadline }, DEFAULT_RETRY_POLICY);
 * // { retry: true, failure: 'HTTP 503', delayMs: 180 }
 */
export function decideRetry(outcome: AttemptOutcome, state: RetryState, policy: RetryPolicy, random: () => number = Math.random): RetryDecision {
  let failure: string;
  let retryAfterMs: number | undefined;
  if (outcome.kind === 'response') {
    const last = outcome.observation.responses.at(-1);
    if (!last || !RETRY_STATUSES.has(last.status)) return { retry: false };
    failure = `HTTP ${last.status}`;
    retryAfterMs = parseRetryAfter(retryAfterOf(last.headers), state.now);
    if (last.status === 429) return decideRateLimited(retryAfterMs, state, policy);
  } else {
    const code = causeCode(outcome.error.cause);
    if (outcome.error.code !== 'AUTH_NETWORK' || code === undefined || !RETRY_ERROR_CODES.has(code)) return { retry: false };
    const { responses, lastStatus, answering } = outcome.progress;
    if (responses > 0) {
      const status = lastStatus === undefined ? '' : ` (HTTP ${lastStatus})`;
      const what = answering ? `the connection broke after the server had begun to answer${status}` : `an earlier hop of the redirect chain had been answered${status}`;
      return { retry: false, note: `not retried: ${what}, so the server had handled the request` };
    }
    failure = code;
  }
  if (state.retriesDone >= policy.retries) return { retry: false };
  const backoff = policy.baseDelayMs * 2 ** state.retriesDone;
  const delayMs = retryAfterMs ?? Math.round(backoff / 2 + (random() * backoff) / 2);
  if (state.waitedMs + delayMs > policy.maxTotalWaitMs) {
    const asked = retryAfterMs === undefined ? `a wait of ${seconds(delayMs)}` : `the server asked to wait ${seconds(delayMs)} (Retry-After)`;
    return { retry: false, note: `not retried: ${asked}, more than the ${seconds(policy.maxTotalWaitMs)} retries may wait in all` };
  }
  if (state.now + delayMs + MIN_ATTEMPT_MS > state.deadline) {
    return { retry: false, note: `not retried: waiting ${seconds(delayMs)} would leave no time of the request's timeout` };
  }
  return { retry: true, failure, delayMs };
}

/**
 * A 429 is the application limiting sign-ins (5 per 5 minutes per account is common), and every
 * attempt counts against that limit: retried only when the server said when (`Retry-After`), never
 * sooner, once at most, and only if the wait ends 5 s before the request's own timeout (the step's time).
 */
function decideRateLimited(retryAfterMs: number | undefined, state: RetryState, policy: RetryPolicy): RetryDecision {
  if (policy.retries === 0 || state.retriesDone >= policy.retries) return { retry: false };
  if ((state.rateLimitedRetries ?? 0) >= 1) {
    return { retry: false, note: 'retried once, as late as Retry-After asked, and refused again: a sign-in is not sent a third time after a 429' };
  }
  if (retryAfterMs === undefined) {
    return { retry: false, note: 'not retried: the 429 had no Retry-After saying when to come back, and a sign-in sent again sooner counts against the account\'s limit' };
  }
  const left = state.deadline - state.now - RATE_LIMITED_ATTEMPT_MS;
  if (retryAfterMs > left) {
    const can = seconds(Math.max(0, Math.floor(left / 100) * 100));
    return { retry: false, note: `not retried: the server asked to wait ${seconds(retryAfterMs)} (Retry-After), more than the ${can} the request's timeout leaves for it (5 s are kept for the retry itself)` };
  }
  return { retry: true, failure: 'HTTP 429', delayMs: retryAfterMs };
}

/**
 * The `Retry-After` of a response, cut to what a date or a number can be (a hostile header stays short in errors).
 *
 * @example
 * retryAfterOf([['Retry-After', '120']]); // '120'
 */
export function retryAfterOf(headers: ReadonlyArray<readonly [string, string]>): string | undefined {
  return headers.find(([name]) => name.toLowerCase() === 'retry-after')?.[1].slice(0, 64);
}

/**
 * Runs `attempt` until its outcome is not retried ({@link decideRetry}), waiting between attempts;
 * returns the last observation, or throws the last error. When there were retries, or a transient
 * failure was left as is, the observation's `retry` (read by the status check) or the error's
 * message and details say so: `request failed: ECONNREFUSED after 3 attempts`.
 *
 * @example
 * const observation = await withRetries((progress) => sendOnce(req, opts, deadline, progress),
 *   { policy: DEFAULT_RETRY_POLICY, deadline });
 */
export async function withRetries(
  attempt: (progress: AttemptProgress) => Promise<Observation>,
  options: { policy: RetryPolicy; deadline: number; signal?: AbortSignal; random?: () => number },
): Promise<Observation> {
  let summary: RetrySummary | undefined;
  for (;;) {
    const progress: AttemptProgress = { responses: 0 };
    let outcome: AttemptOutcome;
    try {
      const observation = await attempt(progress);
      // Nearly every request: a first answer that is not transient, returned without the bookkeeping.
      if (summary === undefined && !RETRY_STATUSES.has(observation.responses.at(-1)?.status ?? 0)) return observation;
      outcome = { kind: 'response', observation };
    } catch (error) {
      if (!(error instanceof MultiAuthError) || options.signal?.aborted) throw error;
      outcome = { kind: 'error', error, progress };
    }
    summary ??= { failures: [] };
    const waitedMs = summary.failures.reduce((sum, f) => sum + f.waitedMs, 0);
    const rateLimitedRetries = summary.failures.filter((f) => f.failure === 'HTTP 429').length;
    const state = { retriesDone: summary.failures.length, waitedMs, now: Date.now(), deadline: options.deadline, rateLimitedRetries };
    const decision = decideRetry(outcome, state, options.policy, options.random);
    if (!decision.retry) {
      if (decision.note !== undefined) summary.note = decision.note;
      const told = summary.failures.length > 0 || summary.note !== undefined;
      if (outcome.kind === 'error') throw told ? withRetryHistory(outcome.error, summary) : outcome.error;
      if (told) outcome.observation.retry = summary;
      return outcome.observation;
    }
    summary.failures.push({ failure: decision.failure, waitedMs: decision.delayMs });
    try {
      await sleep(decision.delayMs, undefined, options.signal ? { signal: options.signal } : {});
    } catch (error) {
      throw options.signal?.reason ?? error;
    }
  }
}

/**
 * The words an error adds for a request's retries: ` after 3 attempts` for its message, and lines
 * for its details (what each earlier attempt got and how long was waited; why a transient failure
 * was not retried).
 *
 * @example
 * describeRetries({ failures: [{ failure: 'HTTP 503', waitedMs: 200 }] });
 * // { suffix: ' after 2 attempts', details: ['earlier attempts: HTTP 503 (then waited 0.2 s)'] }
 */
export function describeRetries(summary: RetrySummary | undefined): { suffix: string; details: string[] } {
  if (!summary) return { suffix: '', details: [] };
  const details: string[] = [];
  if (summary.failures.length) {
    details.push(`earlier attempts: ${summary.failures.map((f) => `${f.failure} (then waited ${seconds(f.waitedMs)})`).join(', ')}`);
  }
  if (summary.note !== undefined) details.push(summary.note);
  return { suffix: summary.failures.length ? ` after ${summary.failures.length + 1} attempts` : '', details };
}

function withRetryHistory(error: MultiAuthError, summary: RetrySummary): MultiAuthError {
  const { suffix, details } = describeRetries(summary);
  return withContext(error, { messageSuffix: suffix, details });
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s`;
}
