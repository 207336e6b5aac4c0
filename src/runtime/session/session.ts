import type { ObservedCookie, OriginStorage } from '../http/observation.js';
import type { StoredPasskey } from './passkey.js';

export type { OriginStorage } from '../http/observation.js';

/** What a digest user needs to answer later challenges of the same protection space (RFC 7616). */
export interface DigestSessionState {
  username: string;
  password: string;
  /** The last challenge answered, so a later request may answer pre-emptively. */
  realm?: string;
  nonce?: string;
  opaque?: string;
  algorithm?: string;
  qop?: string;
  /** The last nonce count used with `nonce`. */
  nc?: number;
  /** The server asked for the username hashed (RFC 7616 section 3.4.4). */
  userhash?: boolean;
  /** Origin (`scheme://host:port`) of the protection space: answers are sent pre-emptively only there. */
  origin?: string;
}

/**
 * A user's session as requests get it: plain JSON, handed to `authedRequest`, browser contexts and
 * `multiauth login --json`. It is self-contained: the user's static credentials (headers, cookies,
 * query parameters, body, HTTP Basic, a digest password) are folded in with what the sign-in
 * produced ({@link SignInResult}), so applying a session needs nothing else. It is never written
 * to disk whole: the cache holds the {@link SignInResult} and `completeSession` folds the
 * config's part in again.
 *
 * Every value in it is secret unless proven otherwise: print it only through a Redactor.
 */
export interface Session {
  user: string;
  /** Headers for every authenticated request, by name (as first written), several values kept. */
  headers: Record<string, string[]>;
  /** Cookies for every authenticated request (injections, static cookies, cookies the sign-in set). */
  cookies: ObservedCookie[];
  /** Query parameters added to every authenticated request. */
  query: Record<string, string[]>;
  /**
   * Body rules for authenticated requests: `merge` is the user's credentials body (merged by the
   * spec's rules), `set` the body injections (dot path -> value) written into JSON and form bodies.
   */
  body: { merge?: unknown; set: Record<string, string> };
  /** Browser storage per origin (a browser step's, storage injections), for signed-in browser contexts. */
  origins: OriginStorage[];
  /**
   * The user's static `local_storage` / `session_storage` credentials: items of every signed-in
   * page of the scope's origins (no origin is known before a page opens). Only in a {@link Session}:
   * the config holds them.
   */
  scopeStorage?: { localStorage: Array<{ name: string; value: string }>; sessionStorage: Array<{ name: string; value: string }> };
  /** Present when the user answers digest challenges. */
  digest?: DigestSessionState;
  /** Unix time in ms when the session was made. */
  createdAt: number;
  /** Unix time in ms after which the session must not be used; null = lasts the run. */
  expiresAt: number | null;
  /** Every variable of the sign-in, kept so a refresh sees them (`{{refresh_token}}`). Secret. */
  variables: Record<string, string>;
  /**
   * The user's passkey after the sign-in: its last signature counter (and a registered passkey
   * whole). In a complete {@link Session}: the credential every browser context of the user is
   * seeded with, private key included. Secret.
   */
  passkey?: StoredPasskey;
  /** How the session came to be; annotations and `login` output say it. */
  origin: 'signed-in' | 'refreshed';
}

/** A digest user's challenge state without its username and password, which the config holds. */
export type DigestChallenge = Omit<DigestSessionState, 'username' | 'password'>;

/**
 * What a sign-in produced, and nothing the config holds (DESIGN.md "Requests"): injections, the
 * cookies and localStorage the server set, the expiry, the digest challenge, and the variables the
 * procedure extracted or stored (a refresh needs `{{refresh_token}}`). No password, no static
 * credential, no config variable, no header built from them. This is what the session cache
 * holds (mode 0600); `completeSession` makes a {@link Session} of it with the user's credentials.
 */
export interface SignInResult extends Omit<Session, 'digest'> {
  digest?: DigestChallenge;
}
