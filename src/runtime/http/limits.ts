// Limits and defaults of the transport, in a file of their own so that every http module can import
// them without importing each other (types -> retry -> network-error -> types was a cycle).

/** Redirects followed when an operation does not say (`follow_redirects` absent). */
export const DEFAULT_FOLLOW_REDIRECTS = 20;

/** Seconds a sign-in request may take when an operation does not say (`timeout` absent). */
export const DEFAULT_TIMEOUT_SECONDS = 30;

/** A response body larger than this many bytes fails the exchange (`AUTH_NETWORK`). */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;
