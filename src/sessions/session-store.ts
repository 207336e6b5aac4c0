import { readFileSync, writeFileSync } from 'node:fs';
import { needsRefresh, type SignInResult } from '../runtime/index.js';
import { ensureCacheDir } from './cache-dir.js';
import { withFileLock, type FileLockOptions } from './lock.js';
import { readSessionFile, sessionFilePath, writeSessionFile } from './session-file.js';
import { failureFilePath, forgetFailure, readFailure, writeFailure } from './failure-memory.js';
import { isMultiAuthError, type MultiAuthError } from '../core/errors.js';

/** How a session was obtained: annotations and reports say it. */
export type SessionSource = 'memo' | 'cached' | 'fresh' | 'refreshed';

/** What a sign-in produced (as cached) and how it was obtained. */
export interface ResolvedSession {
  session: SignInResult;
  source: SessionSource;
}

/** What the store calls to make sessions; the runtime's `signInUser` / `refreshSignIn` behind it. */
export interface SessionProvider {
  signIn(user: string): Promise<SignInResult>;
  refresh(session: SignInResult): Promise<SignInResult>;
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
   * What cached sessions belong to: the config's content hash, plus a run id when sessions must
   * not be reused across runs. A file written under another key is ignored.
   */
  scopeKey: string;
  /** false = keep sessions in memory only (no files, no cross-process sharing). Default true. */
  persist?: boolean;
  /**
   * The run (`runId`): a failed sign-in is remembered for the processes of this run, which then
   * fail at once instead of signing in again. Default: failures are remembered in this process only.
   */
  run?: string;
  /** Masks what a remembered failure writes to disk; default: written as the error says it. */
  redact?: (text: string) => string;
  now?: () => number;
  lock?: FileLockOptions;
}

/**
 * Sessions (what each sign-in produced), lazily, once per user across all the processes that share a cache directory:
 * a per-process memo, then the 0600 cache file, then a sign-in under a cross-process lock. A session
 * close to expiry is refreshed once, by whichever process gets the lock first; the others read the
 * refreshed file.
 *
 * @example
 * const store = new SessionStore({ dir: '.auth', scopeKey: loaded.contentHash }, provider);
 * const { session, source } = await store.get('alice'); // source: 'fresh' the first time
 */
export class SessionStore {
  private readonly memo = new Map<string, SignInResult>();
  private readonly pending = new Map<string, Promise<ResolvedSession>>();
  /** Failed sign-ins of this process: every later request for the user gets the same error. */
  private readonly failed = new Map<string, unknown>();
  private readonly now: () => number;

  constructor(
    private readonly options: SessionStoreOptions,
    private readonly provider: SessionProvider,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** The user's session, signing in or refreshing only when no usable one exists anywhere. */
  get(user: string): Promise<ResolvedSession> {
    if (this.failed.has(user)) return Promise.reject(this.failed.get(user));
    const memo = this.memo.get(user);
    if (memo && !needsRefresh(memo, this.now())) return Promise.resolve({ session: memo, source: 'memo' });
    // Two fixtures of one test asking at once must not sign in twice.
    let pending = this.pending.get(user);
    if (!pending) {
      pending = this.resolve(user, memo)
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

  /**
   * A new session for a user whose session `dead` a server refused (HTTP 401), once across the
   * processes: under the lock, a session another process made since is taken as it is; else, when
   * the user has a check, the cached session is checked (a 401 that was about something else keeps
   * it); else the user signs in again. Resolves to the session to use from now on.
   */
  async renew(user: string, dead: SignInResult): Promise<ResolvedSession> {
    if (this.failed.has(user)) throw this.failed.get(user);
    this.memo.delete(user);
    const { dir, scopeKey, run } = this.options;
    if (this.options.persist === false) {
      const fresh = { session: await this.provider.signIn(user), source: 'fresh' as const };
      this.memo.set(user, fresh.session);
      return fresh;
    }
    const file = sessionFilePath(dir, scopeKey, user);
    ensureCacheDir(dir);
    const resolved = await withFileLock(
      file,
      async (): Promise<ResolvedSession> => {
        const current = readSessionFile(file, scopeKey);
        if (current && current.createdAt !== dead.createdAt && !needsRefresh(current, this.now())) return { session: current, source: 'cached' };
        if (current && run !== undefined && this.provider.check && this.provider.checks?.(user)) {
          try {
            await this.provider.check(current);
            return { session: current, source: 'cached' };
          } catch (error) {
            if (!isMultiAuthError(error)) throw error;
          }
        }
        let fresh: ResolvedSession;
        try {
          fresh = { session: await this.provider.signIn(user), source: 'fresh' };
        } catch (error) {
          if (isSignInFailure(error)) {
            this.failed.set(user, error);
            if (run !== undefined) writeFailure(failureFilePath(file), run, error, this.options.redact ?? ((t) => t));
          }
          throw error;
        }
        writeSessionFile(file, scopeKey, fresh.session);
        if (run !== undefined && this.provider.checks?.(user)) markChecked(file, run, fresh.session);
        return fresh;
      },
      this.options.lock,
    );
    this.memo.set(user, resolved.session);
    return resolved;
  }

  /** Forgets the memo of a user (e.g. after the server revoked the session); files stay. */
  forget(user: string): void {
    this.memo.delete(user);
  }

  private async resolve(user: string, stale: SignInResult | undefined): Promise<ResolvedSession> {
    const resolved = this.options.persist === false ? await this.resolveInMemory(user, stale) : await this.resolveShared(user);
    this.memo.set(user, resolved.session);
    return resolved;
  }

  private async resolveInMemory(user: string, stale: SignInResult | undefined): Promise<ResolvedSession> {
    if (stale) return { session: await this.provider.refresh(stale), source: 'refreshed' };
    return { session: await this.provider.signIn(user), source: 'fresh' };
  }

  private async resolveShared(user: string): Promise<ResolvedSession> {
    const { dir, scopeKey, run } = this.options;
    const file = sessionFilePath(dir, scopeKey, user);
    const failure = failureFilePath(file);
    const checks = run !== undefined && this.provider.check !== undefined && this.provider.checks?.(user) === true;
    const cached = readSessionFile(file, scopeKey);
    if (cached && !needsRefresh(cached, this.now()) && (!checks || checkedInRun(file, run, cached))) return { session: cached, source: 'cached' };
    const remembered = run === undefined ? undefined : readFailure(failure, run);
    if (remembered) throw remembered;

    ensureCacheDir(dir);
    return withFileLock(
      file,
      async () => {
        // Another process may have signed in or refreshed while this one waited for the lock.
        let current = readSessionFile(file, scopeKey);
        if (current && !needsRefresh(current, this.now())) {
          if (!checks || checkedInRun(file, run, current)) return { session: current, source: 'cached' as const };
          // Once per run, under the lock: a server restarted since has forgotten its sessions.
          try {
            await this.provider.check?.(current);
            markChecked(file, run as string, current);
            return { session: current, source: 'cached' as const };
          } catch (error) {
            if (!isMultiAuthError(error)) throw error;
            current = undefined;
          }
        }
        const failedMeanwhile = run === undefined ? undefined : readFailure(failure, run);
        if (failedMeanwhile) throw failedMeanwhile;
        let resolved: ResolvedSession;
        try {
          resolved = current
            ? { session: await this.provider.refresh(current), source: 'refreshed' }
            : { session: await this.provider.signIn(user), source: 'fresh' };
        } catch (error) {
          if (run !== undefined && isSignInFailure(error)) writeFailure(failure, run, error, this.options.redact ?? ((t) => t));
          throw error;
        }
        writeSessionFile(file, scopeKey, resolved.session);
        forgetFailure(failure);
        // A sign-in or refresh checks its own session (the runtime does, when the user has a check).
        if (checks) markChecked(file, run as string, resolved.session);
        return resolved;
      },
      this.options.lock,
    );
  }
}

/** A failure of the sign-in itself, which the run remembers: not a bug, not the cache's own trouble. */
function isSignInFailure(error: unknown): error is MultiAuthError {
  return isMultiAuthError(error) && error.code !== 'SESSION_CACHE';
}

/** Whether the cached session was checked in this run (`<file>.checked` names the run and the session). */
function checkedInRun(file: string, run: string | undefined, session: SignInResult): boolean {
  if (run === undefined) return false;
  try {
    const mark = JSON.parse(readFileSync(`${file}.checked`, 'utf8')) as { run?: unknown; createdAt?: unknown };
    return mark.run === run && mark.createdAt === session.createdAt;
  } catch {
    return false;
  }
}

function markChecked(file: string, run: string, session: SignInResult): void {
  try {
    writeFileSync(`${file}.checked`, JSON.stringify({ run, createdAt: session.createdAt }), { mode: 0o600 });
  } catch {
    // Best effort: another worker checks once more.
  }
}
