import { redactedUrl } from '../../core/urls.js';
import type { Observation } from '../http/observation.js';

/** How many exchanges of one step an event lists; the rest are counted (a browser step makes many). */
export const EXCHANGES_PER_STEP = 12;

/** One request of a step and the status it got, for a step view: the URL without query values. */
export interface ExchangeView {
  method: string;
  url: string;
  /** Absent when the request got no response (a network failure, a browser request aborted). */
  status?: number;
}

/**
 * What a sign-in reports as it runs (`AuthenticateOptions.onEvent`), for `multiauth login
 * --verbose`. Names only, never values: what was extracted or stored is named, injections say where
 * they went. URLs carry no query values, user info or fragment.
 */
export type SignInEvent =
  | {
      kind: 'step';
      procedure: string;
      /** 0-based. */
      step: number;
      /** `http`, `curl`, `digest`, `browser`. */
      stepKind: string;
      exchanges: ExchangeView[];
      /** Exchanges beyond {@link EXCHANGES_PER_STEP}, not listed. */
      more: number;
      ms: number;
      /** Names of the variables its extractions read, in order. */
      extracted: string[];
      /** Names of the variables the step stored itself (a browser step's `store*`). */
      stored: string[];
    }
  | {
      kind: 'step-failed';
      procedure: string;
      step: number;
      stepKind: string;
      /** The requests the step made before it failed (none when it failed before sending). */
      exchanges: ExchangeView[];
      more: number;
      ms: number;
    }
  | { kind: 'injected'; procedure: string; injections: Array<{ location: string; key: string }> }
  | { kind: 'check'; method: string; url: string; status: number; ms: number; ok: boolean };

/**
 * The exchanges of an observation as a step view lists them: each request with the status of its
 * response, matched by URL in order.
 *
 * @example
 * exchangeViews(observation); // { exchanges: [{ method: 'POST', url: 'https://a.test/token', status: 200 }], more: 0 }
 */
export function exchangeViews(observation: Observation): { exchanges: ExchangeView[]; more: number } {
  const { requests, responses } = observation;
  // A browser's responses arrive in their own order: each request takes the first unused response
  // for its URL (a redirect chain, in order, hop by hop).
  const used = new Set<number>();
  const candidates = responses.slice(0, 1000);
  const exchanges = requests.slice(0, EXCHANGES_PER_STEP).map((request) => {
    const index = candidates.findIndex((response, i) => !used.has(i) && response.url === request.url);
    if (index !== -1) used.add(index);
    const status = index === -1 ? undefined : candidates[index]?.status;
    return { method: request.method, url: redactedUrl(request.url), ...(status === undefined ? {} : { status }) };
  });
  return { exchanges, more: Math.max(0, requests.length - EXCHANGES_PER_STEP) };
}
