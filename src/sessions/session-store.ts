import { emptySession, needsRefresh, type SignInResult, type StoredPasskey } from '../runtime/index.js';
import type { FileLockOptions } from './lock.js';
import { FileBackend } from './file-backend.js';
import type { SessionBackend } from './store-backend.js';
import { isMultiAuthError, type MultiAuthError } from '../core/errors.js';
import type { RunEvent } from './run-events.js';

/** What the store tells {@link SessionStoreOptions.observe}: a run event without its worker. */
export type StoreEvent = Omit<RunEvent, 'worker' | 'out'>;

/**
 * The key a user's passkey record is stored under (`backend.slot(user, PASSKEY_KEY)`): one per user,
 * apart from its sessions, so that the signature counter outlives every session, a changed config
 * and `MULTIAUTH_CACHE=off`. Sealed as sessions are.
 */
export const PASSKEY_KEY = 'multiauth-passkey-1';

/** How a session was obtained: annotations and reports say it. */
export type SessionSource = 'memo' | 'cached' | 'fresh' | 'refreshed';

/** What a sign-in produced (as cached) and how it was obtained. */
export interface ResolvedSession {
  session: SignInResult;
  source: SessionSource;
}

/** What the store calls to make sessions; the runtime's `signInUser` / `refreshSignIn` behind it. */
export interface SessionProvider {
  /** Signs `user` in; `passkey`: the user's passkey as the store last kept it (users with `passkey`). */
  signIn(user: string, passkey?: StoredPasskey): Promise<SignInResult>;
  /** Renews a session; signs in again when the refresh fails (origin `signed-in`), failing only when that sign-in does. */
  refresh(session: SignInResult, passkey?: StoredPasskey): Promise<SignInResult>;
  /**
   * Whether the user has a passkey, whose counter (or registered credential) the store keeps across
   * sessions and runs ({@link PASSKEY_KEY}); default none has.
   */
  hasPasskey?(user: string): Promise<boolean>;
  /**
   * Whether the user's cached sessions are checked once per run ({@link SessionProvider.check});
   * default none is. Fresh sign-ins and refreshes check themselves.
   */
  checks?(user: string): boolean;
  /** Throws (a `MultiAuthError`) when the server no longer honours a cached session. */
  check?(session: SignInResult): Promise<void>;
}

/** Options of {@link SessionStore}. */
export interface SessionStoreOptions {
  /** The cache directory, e.g. `.auth`. */
  dir: string;
  /**
   * What a user's cached sessions belong to: the user's cache key (`userCacheKey`: what its
   * sign-in depends on), plus a run id when sessions must not be reused across runs; one string
   * for every user, or one per user. A file written under another key is ignored.
   */
  scopeKey: string | ((user: string) => string);
  /** The config that writes the files (`configOwner`), for tidying up; absent = none named. */
  owner?: string;
  /** Where sessions live; default the file store in `dir` (with `owner` and `lock`). */
  backend?: SessionBackend;
  /** false = keep sessions in memory only (no files, no cross-process sharing). Default true. */
  persist?: boolean;
  /**
   * The users whose sessions and passkey stay in this process's memory even though the store
   * persists the others' (a registered passkey with nothing to seal it, under `MULTIAUTH_CACHE=off`).
   */
  inMemory?: (user: string) => Promise<boolean>;
  /**
   * The run (`runId`): a failed sign-in is remembered for the processes of this run, which then
   * fail at once instead of signing in again. Default: failures are remembered in this process only.
   */
  run?: string;
  /** Masks what a remembered failure writes to disk; default: written as the error says it. */
  redact?: (text: string) => string;
  now?: () => number;
  lock?: FileLockOptions;
  /**
   * Told of every sign-in, refresh, re-sign-in (with its reason), failed attempt and session
   * taken from the cache (not from this process's memo): the run's summary and timeline.
   */
  observe?: (event: StoreEvent) => void;
}

/**
 * Sessions (what each sign-in produced), lazily, once per user across all the processes that share a cache directory:
 * a per-process memo, then the 0600 cache file, then a sign-in under a cross-process lock. A session
 * close to expiry is refreshed once, by whichever process gets the lock first; the others read the
 * refreshed file.
 *
 * @example
 * const store = new SessionStore({ dir: '.auth', scopeKey: (user) => keys.get(user)! }, provider);
 * const { session, source } = await store.get('alice'); // source: 'fresh' the first time
 */
export class SessionStore {
  private readonly memo = new Map<string, SignInResult>();
  /** Passkeys of a store that keeps nothing on disk (`persist: false`), by user. */
  private readonly passkeys = new Map<string, StoredPasskey>();
  private readonly pending = new Map<string, Promise<ResolvedSession>>();
  /** Failed sign-ins of this process: every later request for the user gets the same error. */
  private readonly failed = new Map<string, unknown>();
  private readonly now: () => number;
  private readonly backend: SessionBackend;

  constructor(
    private readonly options: SessionStoreOptions,
    private readonly provider: SessionProvider,
  ) {
    this.now = options.now ?? Date.now;
    this.backend = options.backend ?? new FileBackend({ dir: options.dir, ...(options.owner === undefined ? {} : { owner: options.owner }), ...(options.lock ? { lock: options.lock } : {}) });
  }

  /** The user's session, signing in or refreshing only when no usable one exists anywhere. */
  get(user: string): Promise<ResolvedSession> {
    if (this.failed.has(user)) return Promise.reject(this.failed.get(user));
    const held = this.held(user);
    if (held) return Promise.resolve({ session: held, source: 'memo' });
    const memo = this.memo.get(user);
    return this.once(user, async () => ((await this.memoryOnly(user)) ? this.obtainInMemory(user, memo) : this.resolveShared(user)));
  }

  /**
   * The session `get` would answer from this process's memory right now (not close to expiry),
   * or undefined: then `get` reads the cache, signs in or refreshes.
   *
   * @example
   * if (store.held('alice')) { ... } // no file read, no sign-in for alice
   */
  held(user: string): SignInResult | undefined {
    const memo = this.memo.get(user);
    return memo && !this.failed.has(user) && !needsRefresh(memo, this.now()) ? memo : undefined;
  }

  /**
   * Whether {@link get} would give `user` a session with no sign-in, refresh or check: one in this
   * process's memo or the cache, not close to expiry, checked in this run when the user has a check.
   * A user whose sessions stay in memory has none before its first sign-in here.
   */
  async hasUsable(user: string): Promise<boolean> {
    const memo = this.memo.get(user);
    if (memo && !needsRefresh(memo, this.now())) return true;
    if (await this.memoryOnly(user)) return false;
    const key = this.keyOf(user);
    const slot = this.backend.slot(user, key);
    return this.usableCached(user, slot, await this.backend.read(slot, key));
  }

  /**
   * A new session for a user whose session `dead` a server refused (HTTP 401), once across the
   * processes: under the lock, a session another process made since is taken as it is; else, when
   * the user has a check, the cached session is checked (a 401 that was about something else keeps
   * it); else the user signs in again. Resolves to the session to use from now on.
   */
  renew(user: string, dead: SignInResult, reason = 'signed out'): Promise<ResolvedSession> {
    if (this.failed.has(user)) return Promise.reject(this.failed.get(user));
    this.memo.delete(user);
    return this.once(user, async () => ((await this.memoryOnly(user)) ? this.obtainInMemory(user, undefined, reason) : this.renewShared(user, dead, reason)));
  }

  /**
   * The passkey the store keeps for `user` now: its counter may be ahead of a session's, when a
   * test page signed in with the passkey since.
   */
  async keptPasskey(user: string): Promise<StoredPasskey | undefined> {
    if (await this.memoryOnly(user)) return this.passkeys.get(user);
    return (await this.backend.read(this.backend.slot(user, PASSKEY_KEY), PASSKEY_KEY))?.passkey;
  }

  /**
   * Keeps what a test's browser context left of `user`'s passkey (its counter grew when a page
   * signed in with it), under the passkey record's lock, unless the store already has a later one.
   */
  async keepPasskey(user: string, passkey: StoredPasskey): Promise<void> {
    const later = (kept: StoredPasskey | undefined): boolean => kept !== undefined && kept.id === passkey.id && kept.signCount >= passkey.signCount;
    if (await this.memoryOnly(user)) {
      if (!later(this.passkeys.get(user))) this.passkeys.set(user, passkey);
      return;
    }
    const slot = this.backend.slot(user, PASSKEY_KEY);
    await this.backend.withLock(slot, async () => {
      if (later((await this.backend.read(slot, PASSKEY_KEY))?.passkey)) return;
      await this.backend.write(slot, PASSKEY_KEY, { ...emptySession(user, this.now()), passkey });
    });
  }

  /** Whether `user`'s sessions and passkey stay in this process (`persist: false`, `inMemory`). */
  private async memoryOnly(user: string): Promise<boolean> {
    return this.options.persist === false || (await this.options.inMemory?.(user)) === true;
  }

  /** Forgets the memo of a user (e.g. after the server revoked the session); files stay. */
  forget(user: string): void {
    this.memo.delete(user);
  }

  /**
   * Runs `work` for `user` once at a time in this process (two fixtures of one test asking at once
   * must not sign in twice), keeps its session in the memo and remembers a failed sign-in.
   */
  private once(user: string, work: () => Promise<ResolvedSession>): Promise<ResolvedSession> {
    let pending = this.pending.get(user);
    if (!pending) {
      pending = work()
        .then((resolved) => {
          this.memo.set(user, resolved.session);
          return resolved;
        })
        .catch((error: unknown) => {
          // A user's mistake or a server's answer is final for the run; a bug, or the cache itself
          // failing (a lock not got in time), may be tried again.
          if (isSignInFailure(error)) this.failed.set(user, error);
          throw error;
        })
        .finally(() => this.pending.delete(user));
      this.pending.set(user, pending);
    }
    return pending;
  }

  private async obtainInMemory(user: string, stale: SignInResult | undefined, reason?: string): Promise<ResolvedSession> {
    const passkey = this.passkeys.get(user);
    const resolved = await this.observed(user, stale, reason, async (): Promise<ResolvedSession> =>
      stale
        ? { session: await this.provider.refresh(stale, passkey), source: 'refreshed' }
        : { session: await this.provider.signIn(user, passkey), source: 'fresh' });
    if (resolved.session.passkey) this.passkeys.set(user, resolved.session.passkey);
    return resolved;
  }

  /**
   * Runs a sign-in or refresh and tells `observe` what it was: a first sign-in, a re-sign-in
   * and why (`reason`; a refresh the server refused, or a user without a refresh, signs in again:
   * `expired`), a refresh, or a failed attempt.
   */
  private async observed(user: string, current: SignInResult | undefined, reason: string | undefined, work: () => Promise<ResolvedSession>): Promise<ResolvedSession> {
    const at = this.now();
    const started = performance.now();
    const took = () => performance.now() - started;
    try {
      const resolved = await work();
      const again = current ? resolved.session.origin === 'signed-in' : reason !== undefined;
      const why = current ? 'expired' : reason;
      const kind = again ? 're-signed-in' : current ? 'refreshed' : 'signed-in';
      this.options.observe?.({ kind, user, at, ms: took(), ...(again && why ? { reason: why } : {}) });
      return resolved;
    } catch (error) {
      if (isSignInFailure(error)) this.options.observe?.({ kind: 'failed', user, at, ms: took(), code: error.code });
      throw error;
    }
  }

  /** Tells `observe` that `user`'s session came from the cache, looked up since `at`. */
  private fromCache(user: string, at: number, started: number, session: SignInResult): ResolvedSession {
    this.options.observe?.({ kind: 'cached', user, at, ms: performance.now() - started });
    return { session, source: 'cached' };
  }

  /**
   * Runs a sign-in or refresh of `user` with the passkey the store keeps, and keeps the one it
   * ends with, under the passkey record's own lock (taken inside the session's: always in that
   * order), so two processes never assert with the same counter.
   */
  private async withPasskey(user: string, work: (passkey: StoredPasskey | undefined) => Promise<ResolvedSession>): Promise<ResolvedSession> {
    if (!(await this.provider.hasPasskey?.(user))) return work(undefined);
    const slot = this.backend.slot(user, PASSKEY_KEY);
    return this.backend.withLock(slot, async () => {
      const record = await this.backend.read(slot, PASSKEY_KEY);
      const resolved = await work(record?.passkey);
      const passkey = resolved.session.passkey;
      if (passkey) await this.backend.write(slot, PASSKEY_KEY, { ...emptySession(user, this.now()), passkey });
      return resolved;
    });
  }

  private async resolveShared(user: string): Promise<ResolvedSession> {
    const { run } = this.options;
    const key = this.keyOf(user);
    const slot = this.backend.slot(user, key);
    const at = this.now();
    const started = performance.now();
    const cached = await this.backend.read(slot, key);
    if (cached && (await this.usableCached(user, slot, cached))) return this.fromCache(user, at, started, cached);
    const remembered = run === undefined ? undefined : await this.backend.readFailure(slot, run);
    if (remembered) throw remembered;

    return this.backend.withLock(slot, async () => {
      // Another process may have signed in or refreshed while this one waited for the lock.
      let current = await this.backend.read(slot, key);
      let reason: string | undefined;
      if (current && !needsRefresh(current, this.now())) {
        // Once per run, under the lock: a server restarted since has forgotten its sessions.
        if (!this.checks(user) || (await this.checkedInRun(slot, current)) || (await this.alive(slot, current))) return this.fromCache(user, at, started, current);
        current = undefined;
        reason = 'failed its validation';
      }
      const failedMeanwhile = run === undefined ? undefined : await this.backend.readFailure(slot, run);
      if (failedMeanwhile) throw failedMeanwhile;
      return this.obtain(user, slot, current, reason);
    });
  }

  private renewShared(user: string, dead: SignInResult, reason: string): Promise<ResolvedSession> {
    const key = this.keyOf(user);
    const slot = this.backend.slot(user, key);
    return this.backend.withLock(slot, async () => {
      const current = await this.backend.read(slot, key);
      if (current && current.createdAt !== dead.createdAt && !needsRefresh(current, this.now())) return { session: current, source: 'cached' };
      if (current && this.checks(user) && (await this.alive(slot, current))) return { session: current, source: 'cached' };
      return this.obtain(user, slot, undefined, reason);
    });
  }

  /**
   * Refreshes `current`, or signs in when there is none, and stores the result: the session file,
   * the run's check mark (a sign-in or refresh checks its own session), and, when it fails, the
   * run's memory of the failure. A refresh that fails signs in again (the provider does); when that
   * fails too, the session that could not be refreshed is deleted: it must not be tried again by
   * every later run. Called under the file's lock.
   */
  private async obtain(user: string, slot: string, current: SignInResult | undefined, reason?: string): Promise<ResolvedSession> {
    const { run } = this.options;
    let resolved: ResolvedSession;
    try {
      resolved = await this.withPasskey(user, (passkey) =>
        this.observed(user, current, reason, async (): Promise<ResolvedSession> =>
          current
            ? { session: await this.provider.refresh(current, passkey), source: 'refreshed' }
            : { session: await this.provider.signIn(user, passkey), source: 'fresh' }));
    } catch (error) {
      if (current && isSignInFailure(error)) await this.backend.remove(slot);
      if (run !== undefined && isSignInFailure(error)) await this.backend.writeFailure(slot, run, error, this.options.redact ?? ((t) => t));
      throw error;
    }
    await this.backend.write(slot, this.keyOf(user), resolved.session);
    await this.backend.forgetFailure(slot);
    if (this.checks(user)) await this.backend.markChecked(slot, run as string, resolved.session);
    return resolved;
  }

  /** Whether a cached session passes the user's check now; marks it checked for the run when it does. */
  private async alive(slot: string, session: SignInResult): Promise<boolean> {
    try {
      await this.provider.check?.(session);
    } catch (error) {
      if (!isMultiAuthError(error)) throw error;
      return false;
    }
    await this.backend.markChecked(slot, this.options.run as string, session);
    return true;
  }

  /** A cached session taken as it is: not close to expiry, and checked in this run when the user has a check. */
  private async usableCached(user: string, slot: string, cached: SignInResult | undefined): Promise<boolean> {
    return cached !== undefined && !needsRefresh(cached, this.now()) && (!this.checks(user) || (await this.checkedInRun(slot, cached)));
  }

  private checkedInRun(slot: string, session: SignInResult): Promise<boolean> {
    const { run } = this.options;
    return run === undefined ? Promise.resolve(false) : this.backend.checkedInRun(slot, run, session);
  }

  /** Releases the store's connections (Redis); the file store has none. */
  close(): Promise<void> {
    return this.backend.close();
  }

  /** Whether the user's cached sessions are checked once per run (the run is known and the provider checks). */
  private checks(user: string): boolean {
    return this.options.run !== undefined && this.provider.check !== undefined && this.provider.checks?.(user) === true;
  }

  private keyOf(user: string): string {
    const { scopeKey } = this.options;
    return typeof scopeKey === 'string' ? scopeKey : scopeKey(user);
  }

}

/** A failure of the sign-in itself, which the run remembers: not a bug, not the cache's own trouble. */
function isSignInFailure(error: unknown): error is MultiAuthError {
  return isMultiAuthError(error) && error.code !== 'SESSION_CACHE';
}
