import type { MultiAuthError } from '../core/errors.js';
import type { SignInResult } from '../runtime/index.js';

/**
 * Where the sessions of one cache live and how processes take turns on them: the file store
 * (`.auth/`, the default) or Redis (`MULTIAUTH_STORE`). A slot is one user's place under one key
 * ({@link SessionBackend.slot}); everything else is addressed by it. Every method is bounded in
 * time: a store that stops answering fails the call, it never hangs a run.
 */
export interface SessionBackend {
  /** What the user's sessions under `key` are stored as (a file path, a Redis key). */
  slot(user: string, key: string): string;
  /** The session in the slot when it was written under `key` and opens (with the cache key), else undefined. */
  read(slot: string, key: string): Promise<SignInResult | undefined>;
  /** Stores what a sign-in produced, sealed when a cache key is set. */
  write(slot: string, key: string, session: SignInResult): Promise<void>;
  /** Deletes the slot's session and its check mark (a session that can no longer be refreshed). */
  remove(slot: string): Promise<void>;
  /** Runs `work` holding the slot's lock across processes (and machines, for Redis). */
  withLock<T>(slot: string, work: () => Promise<T>): Promise<T>;
  /** The failure an earlier process of run `run` remembered for the slot. */
  readFailure(slot: string, run: string): Promise<MultiAuthError | undefined>;
  /** Remembers a failed sign-in for the other processes of the run, its text through `redact`. */
  writeFailure(slot: string, run: string, error: MultiAuthError, redact: (text: string) => string): Promise<void>;
  forgetFailure(slot: string): Promise<void>;
  /** Whether the session was checked (`validation`) in run `run` already. */
  checkedInRun(slot: string, run: string, session: SignInResult): Promise<boolean>;
  markChecked(slot: string, run: string, session: SignInResult): Promise<void>;
  /** Releases connections; the file store has none. */
  close(): Promise<void>;
}
