import type { SignInJar } from './cookie-jar.js';
import type { HeaderPair } from './observation.js';
import type { RetryPolicy } from './retry.js';
import type { ClientCertificate } from './client-certificates.js';

/**
 * A request ready for the wire: every template expanded, credentials merged, cookies, query and
 * body encoded. The transport sends it as is (plus the cookie jar's cookies).
 */
export interface ResolvedRequest {
  method: string;
  url: string;
  /** Header pairs in order; a name may repeat. */
  headers: HeaderPair[];
  /** The body as text; absent = no body. */
  body?: string;
}

/** How {@link sendRequest} sends one request and follows its redirects. */
export interface SendOptions {
  /** Whole exchange, every redirect hop included. */
  timeoutMs: number;
  /** Redirects to follow; 0 = return the 3xx response itself. */
  followRedirects: number;
  /** Skip TLS certificate verification. */
  insecure: boolean;
  /** HTTP(S) proxy URL for every hop. */
  proxy?: string;
  /** Cookies of this sign-in: sent on every hop, filled from every `Set-Cookie`. */
  jar: SignInJar;
  /** Cancels the exchange (the error is the signal's reason). */
  signal?: AbortSignal;
  /** How transient failures are retried; default: the process's policy, which `MULTIAUTH_RETRIES` sets (two retries). */
  retry?: RetryPolicy;
  /** mTLS certificates, each presented to its own origin only. */
  clientCertificates?: readonly ClientCertificate[];
}
