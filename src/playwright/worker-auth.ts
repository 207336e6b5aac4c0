import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { renderIssue } from '../core/errors.js';
import { Redactor } from '../core/redactor.js';
import type { MtlsCertificate } from '../config/index.js';
import type { Plan } from '../compile/index.js';
import {
  checkStoredSession,
  completeSession,
  emptySession,
  refreshSignIn,
  sessionSecrets,
  signInUser,
  closeMailReaders,
  withStaticCredentials,
  storablePasskey,
  type PasskeyCredential,
  type AuthenticateOptions,
  type Session,
  type SignInResult,
} from '../runtime/index.js';
import {
  SessionStore,
  cacheDirFor,
  configFile,
  configOwner,
  digestOf,
  firstInRun,
  loadDenials,
  loadPasskeySealing,
  loadTidyCache,
  loadUserTypes,
  openConfig,
  quickConfigKey,
  readRunDigest,
  PASSKEY_KEY,
  cacheOff,
  sessionBackendFromEnv,
  runId,
  sessionFilePath,
  writeRunDigest,
  type Denial,
  type OpenedConfig,
  type SessionSource,
  type RunDigest,
  type StoreEvent,
  appendRunEvent,
  readRunEvents,
} from '../sessions/index.js';
import { toSpecError } from './spec-error.js';
import { DEFAULT_SIGNED_OUT, type SignedOutRule } from './signed-out.js';
import { ImpliedValidation } from './implied-validation.js';
import { baseUrlMismatch } from './base-url.js';

/** Options of {@link WorkerAuth}: where things are and how sessions are kept. */
export interface WorkerAuthOptions {
  /** The config path as the user gave it (`authConfig` option or MULTIAUTH_CONFIG), or undefined. */
  configPath?: string;
  /** Directory relative paths resolve from: the Playwright config's directory. */
  baseDir: string;
  env: Record<string, string | undefined>;
  /** Opens a browser context for browser procedures (the worker's browser, launched lazily). */
  browser?: AuthenticateOptions['browser'];
  /** Where the config's warnings are written, by one worker of the run; default the process's stderr. */
  warn?: (text: string) => void;
  /** The project's `baseURL`, compared once per run with the origins the users sign in at. */
  baseURL?: string;
  /**
   * Where this worker tells the run what its sign-ins cost (`runEventsFile`), which worker it is
   * (`worker 3`) and its project's output directory; absent: nothing is recorded. `cached: false`
   * leaves out the sessions taken from the cache (the runner's sign-in ahead: the tests that use
   * them say so).
   */
  events?: { file: string; worker: string; out?: string; cached?: boolean };
}

/** How a test's session was obtained: as the store says, or `ahead`: from the cache, where the runner's sign-in ahead put it in this run. */
export type WorkerSource = SessionSource | 'ahead';

/** A user's session as a test gets it, and how it was obtained. */
export interface WorkerSession {
  session: Session;
  source: WorkerSource;
}

/** What {@link WorkerAuth.renew} found: a new session, or the old one kept because it passed its check. */
export interface RenewedSession extends WorkerSession {
  /** The session was not dead: it passed the user's `validation`, so the answer was a denial. */
  kept: boolean;
}

/** An answer to one of the user's requests that may be a denial rather than a dead session. */
export interface AnswerOf {
  method: string;
  /** The request's URL (its query is not part of the answer's identity). */
  url: string;
  /** How it was refused: a status (`401`) or `redirect`. */
  refusal: string;
}

/** The name the runner's sign-in ahead records its events under, as a worker records `worker 3`. */
export const AHEAD_WORKER = 'runner';

/** What a sign-in of a user without static credentials is completed with: nothing. */
const NO_CREDENTIALS: Parameters<typeof withStaticCredentials>[1] = { headers: [], cookies: [], query: [], basic: 'none' };

/**
 * Everything one Playwright worker needs to authenticate: the config, the run's redactor, and the
 * session store shared with the other workers through `.auth/`.
 *
 * The first worker of a run opens the config (reads, validates, compiles and checks it, shows its
 * warnings) and leaves a digest of it in the cache directory ({@link RunDigest}: hashes, user names,
 * the scope, nothing secret). The other workers start from that digest: while their users' sessions
 * are cached they neither validate nor compile the config, nor load the transport. Anything that
 * needs the plan itself (a sign-in, a refresh, mTLS certificates) opens the config first, which also
 * registers its secrets for masking.
 */
export class WorkerAuth {
  readonly redactor = new Redactor();
  private located?: { file: string; cacheDir: string; key: string | undefined };
  private digest?: RunDigest;
  private opening?: Promise<OpenedConfig>;
  private sessions?: Promise<SessionStore>;
  /** The store once made: {@link holdsSession} asks it without waiting. */
  private madeStore?: SessionStore;
  /** Sessions whose secrets the redactor knows: every test asks for its user's, mostly the same one. */
  private readonly registered = new WeakSet<Session>();
  /** Each cached sign-in completed once: every test asks for its user's, mostly the same one. */
  private readonly completed = new WeakMap<SignInResult, Session>();
  /** What each completed session was made of: a renewal names the sign-in it replaces. */
  private readonly producedOf = new WeakMap<Session, SignInResult>();
  /** Whether this worker compared the project's `baseURL` with the config's origins. */
  private baseUrlChecked = false;
  /** Sessions of users without a procedure, made from the config once per worker. */
  private readonly statics = new Map<string, Session>();
  /** The GETs that showed each user's session alive, for users without a `validation`. */
  readonly impliedValidation = new ImpliedValidation();

  constructor(private readonly options: WorkerAuthOptions) {}

  /** Releases the session store's connections (a Redis store's) and the mail reader: at the end of the worker. */
  async close(): Promise<void> {
    const store = await this.sessions?.catch(() => undefined);
    await store?.close();
    await closeMailReaders();
  }

  /**
   * Registers the config's own secrets (passwords, client secrets, static tokens) in the
   * redactor, opening the config if this worker has not. A worker that started from the run's
   * digest with cached sessions knows only its sessions' values, yet a page can show a config
   * secret (Jupyter's server token, the password of a token login): its trace must mask it too.
   * Never throws: a config that does not open has failed the tests that asked for a session.
   *
   * @example
   * await auth.registerConfigSecrets(); // then mask the test's trace
   */
  async registerConfigSecrets(): Promise<void> {
    await this.open().then(
      () => undefined,
      () => undefined,
    );
  }

  /**
   * Whether this worker is the first of the run to ask for `key`: for a warning shown once per run.
   *
   * @example
   * if (auth.firstInRun('some warning')) console.warn('...');
   */
  firstInRun(key: string): boolean {
    return firstInRun(this.locate().cacheDir, `${key}\0${runId(this.options.env)}`);
  }

  /**
   * The config's compiled plan, for the access matrix's tests: their requests, expectations and
   * deny rules (opens the config in this worker if it has not).
   */
  async plan(): Promise<Plan> {
    return (await this.open()).plan;
  }

  /** The config's `scope`: origins that receive the injected credentials. */
  async scope(): Promise<string[]> {
    return (await this.digestOrOpen()).scope;
  }

  /** The config's mTLS certificates when `user` presents them (paths absolute), else undefined. */
  async mtlsCertificates(user: string): Promise<MtlsCertificate[] | undefined> {
    if (!(await this.digestOrOpen()).mtlsUsers.includes(user)) return undefined;
    const { plan } = await this.open();
    return plan.mtls.length ? plan.mtls.map((c) => ({ ...c })) : undefined;
  }

  /**
   * The user's session: from memory, the cache, or a sign-in (once across workers), with the
   * config's static credentials folded in. A user without a procedure needs no sign-in and gets no
   * cache file: its session is made from the config.
   */
  async session(user: string): Promise<WorkerSession> {
    try {
      const digest = await this.digestOrOpen();
      this.checkBaseUrl(digest);
      let resolved: WorkerSession;
      if (digest.staticUsers.includes(user)) {
        const made = this.statics.get(user);
        resolved = made ? { session: made, source: 'memo' } : { session: await this.staticSession(user), source: 'fresh' };
      } else {
        const stored = await (await this.store()).get(user);
        const source = stored.source === 'cached' && this.signedInAhead(user) ? 'ahead' : stored.source;
        resolved = { session: await this.complete(stored.session, digest), source };
      }
      const { session } = resolved;
      if (!this.registered.has(session)) {
        this.registered.add(session);
        this.redactor.addLazily(() => sessionSecrets(session));
      }
      return resolved;
    } catch (error) {
      throw toSpecError(error, this.redactor);
    }
  }

  /**
   * Whether {@link session} would answer for `user` from this worker's memory right now, with
   * nothing read, signed in or refreshed: a test's report then needs no sign-in step for it.
   *
   * @example
   * if (auth.holdsSession('alice')) { ... } // every test of alice's after the worker's first
   */
  holdsSession(user: string): boolean {
    const digest = this.digest;
    if (!digest || !this.baseUrlChecked) return false;
    const held = this.madeStore?.held(user);
    const session = digest.staticUsers.includes(user) ? this.statics.get(user) : held && this.completed.get(held);
    return session !== undefined && this.registered.has(session);
  }

  /**
   * Whether a test of `user` would take a session as it is, with no sign-in, refresh or check:
   * one in the cache, not close to expiry, checked in this run when the user has a check (or a
   * user without a procedure). The runner's sign-in ahead leaves such users alone.
   *
   * @example
   * if (!(await auth.hasUsableSession('alice'))) await auth.prepare('alice');
   */
  async hasUsableSession(user: string): Promise<boolean> {
    const digest = await this.digestOrOpen();
    if (digest.staticUsers.includes(user)) return true;
    return (await this.store()).hasUsable(user);
  }

  /**
   * The users among `users` who sign in with HTTP requests alone (no browser, mail or passkey),
   * from the run's digest when one is checked, else from opening the config.
   *
   * @example
   * await auth.httpUsers(['alice', 'web-1']); // ['alice']
   */
  async httpUsers(users: readonly string[]): Promise<string[]> {
    const digest = await this.digestOrOpen();
    return users.filter((user) => digest.httpUsers.includes(user));
  }

  /**
   * The users among `users` who sign in with browser steps and HTTP requests alone (no mail, no
   * passkey), from the run's digest when one is checked, else from opening the config.
   *
   * @example
   * await auth.browserUsers(['alice', 'web-1']); // ['web-1']
   */
  async browserUsers(users: readonly string[]): Promise<string[]> {
    const digest = await this.digestOrOpen();
    return users.filter((user) => digest.browserUsers.includes(user));
  }

  /**
   * Makes sure the store holds a session of `user`, signing in (once across the run's processes)
   * when none is cached or it is close to expiry: the runner's sign-in ahead. Nothing is completed
   * with the config's credentials nor registered for masking here: the tests' workers do that when
   * they take the session. A failed sign-in is remembered for the run as a worker's is.
   *
   * @example
   * await auth.prepare('alice'); // alice's tests then find her session in the cache
   */
  async prepare(user: string): Promise<void> {
    const digest = await this.digestOrOpen();
    if (digest.staticUsers.includes(user)) return;
    await (await this.store()).get(user);
  }

  /**
   * A new session for `user`, whose session `dead` a server answered as signed out (see
   * `SessionStore.renew`: once across workers; a check, when the user has one, may find the session
   * alive: then it is `kept`). Undefined when the user cannot be signed in again: `reauth: false`,
   * or a user without a procedure (its session is its config).
   */
  async renew(user: string, dead: Session, reason?: string): Promise<RenewedSession | undefined> {
    try {
      const digest = await this.digestOrOpen();
      const produced = this.producedOf.get(dead);
      if (digest.noReauthUsers.includes(user) || digest.staticUsers.includes(user) || !produced) return undefined;
      const renewed = await (await this.store()).renew(user, produced, reason);
      const kept = renewed.source === 'cached' && renewed.session.createdAt === produced.createdAt;
      return { session: await this.complete(renewed.session, digest), source: renewed.source, kept };
    } catch (error) {
      throw toSpecError(error, this.redactor);
    }
  }

  /** What a "signed out" answer looks like for `user` (`reauth`), or false when none signs it in again. */
  async signedOutRule(user: string): Promise<SignedOutRule | false> {
    const digest = await this.digestOrOpen();
    if (digest.noReauthUsers.includes(user)) return false;
    return digest.reauthRules.find((rule) => rule.user === user) ?? DEFAULT_SIGNED_OUT;
  }

  /** Whether `user` has a `validation` (the check `renew` makes before signing in again). */
  async hasValidation(user: string): Promise<boolean> {
    return (await this.digestOrOpen()).checkedUsers.includes(user);
  }

  /** Whether `answer` to `user` was found a denial (in this run or a recent one), not a dead session. */
  async isDenial(user: string, answer: AnswerOf): Promise<boolean> {
    const denial = await this.denialOf(user, answer);
    return denial !== undefined && (await loadDenials()).isKnownDenial(this.locate().cacheDir, denial);
  }

  /** Remembers, for every worker, that `answer` is what `user` gets with a working session. */
  async rememberDenial(user: string, answer: AnswerOf): Promise<void> {
    const denial = await this.denialOf(user, answer);
    if (denial) (await loadDenials()).rememberDenial(this.locate().cacheDir, denial);
    this.record({ kind: 'denial', user, at: Date.now(), ms: 0, reason: refusalReason(answer.refusal) });
  }

  /** Whether the runner's sign-in ahead signed `user` in during this run (the run's events say). */
  private signedInAhead(user: string): boolean {
    const file = this.options.events?.file;
    return file !== undefined && readRunEvents(file).some((event) => event.kind === 'signed-in' && event.worker === AHEAD_WORKER && event.user === user);
  }

  /** Tells the run (its events file) what happened to a user's session; nothing without one. */
  private record(event: StoreEvent): void {
    const events = this.options.events;
    if (!events || (event.kind === 'cached' && events.cached === false)) return;
    const reason = event.reason === undefined ? {} : { reason: this.redactor.redact(event.reason) };
    appendRunEvent(events.file, { ...event, ...reason, worker: events.worker, ...(events.out === undefined ? {} : { out: events.out }) });
  }

  /** When the session made by a re-sign-in for `answer` that could not be checked was made, if there was one. */
  async suspectSince(user: string, answer: AnswerOf): Promise<number | undefined> {
    const denial = await this.denialOf(user, answer);
    return denial && (await loadDenials()).suspectSince(this.locate().cacheDir, denial);
  }

  /** Remembers that `answer` signed `user` in again at `since` and the request was not sent again. */
  async rememberSuspect(user: string, answer: AnswerOf, since: number): Promise<void> {
    const denial = await this.denialOf(user, answer);
    if (denial) (await loadDenials()).rememberSuspect(this.locate().cacheDir, denial, since);
  }

  private async denialOf(user: string, { method, url, refusal }: AnswerOf): Promise<Denial | undefined> {
    const digest = await this.digestOrOpen();
    const index = digest.users.indexOf(user);
    let path: string;
    try {
      const parsed = new URL(url);
      path = parsed.origin + parsed.pathname;
    } catch {
      return undefined;
    }
    if (index < 0) return undefined;
    return { userKey: this.scopeKey(digest.userKeys[index] as string), method, path, refusal };
  }

  /** A cached sign-in as a session: with the config's credentials when the user has any. */
  private async complete(produced: SignInResult, digest: RunDigest): Promise<Session> {
    let session = this.completed.get(produced);
    if (!session) {
      session = digest.configUsers.includes(produced.user)
        ? await completeSession((await this.open()).plan, produced)
        : withStaticCredentials(produced, NO_CREDENTIALS);
      this.completed.set(produced, session);
      this.producedOf.set(session, produced);
    }
    return session;
  }

  /**
   * The passkey to seed into a test's browser context of `session`'s user: the session's, at the
   * store's latest counter (a test page may have signed in with it since the session was made).
   */
  async passkeyFor(session: Session): Promise<PasskeyCredential | undefined> {
    const passkey = session.passkey;
    if (passkey?.privateKey === undefined) return undefined;
    const kept = await (await this.store()).keptPasskey(session.user);
    const signCount = kept?.id === passkey.id ? Math.max(kept.signCount, passkey.signCount) : passkey.signCount;
    return { ...passkey, privateKey: passkey.privateKey, signCount };
  }

  /**
   * Keeps the counter a test's browser context left on `seeded` (its pages signed in with the
   * passkey), so the next sign-in, in this run or a later one, continues after it.
   */
  async keepPasskey(user: string, seeded: PasskeyCredential, held: readonly PasskeyCredential[]): Promise<void> {
    const after = held.find((credential) => credential.id === seeded.id);
    if (!after || after.signCount <= seeded.signCount) return;
    const planUser = (await this.open()).plan.users.find((u) => u.name === user);
    if (!planUser) return;
    await (await this.store()).keepPasskey(user, await storablePasskey(planUser, after));
  }

  /** Whether `user` registers a passkey that nothing would seal (no MULTIAUTH_CACHE_KEY). */
  private async registersUnsealed(user: string): Promise<boolean> {
    const planUser = (await this.open()).plan.users.find((u) => u.name === user);
    return planUser !== undefined && (await loadPasskeySealing()).registersUnsealed(planUser, this.options.env);
  }

  /**
   * Fails the sign-in of a user whose registered passkey the cache would write unsealed, before
   * the app registers anything: a private key is never stored in clear. The store remembers the
   * failure for the run.
   */
  private async refuseUnsealedPasskey(user: string): Promise<void> {
    if (cacheOff(this.options.env) || !(await this.registersUnsealed(user))) return;
    const planUser = (await this.open()).plan.users.find((u) => u.name === user);
    if (planUser) throw (await loadPasskeySealing()).unsealedPasskeyError(planUser);
  }

  private async staticSession(user: string): Promise<Session> {
    const session = await completeSession((await this.open()).plan, emptySession(user, Date.now()));
    this.statics.set(user, session);
    return session;
  }

  private store(): Promise<SessionStore> {
    this.sessions ??= this.digestOrOpen().then(async (digest) => {
      const { cacheDir, file } = this.locate();
      const backend = await sessionBackendFromEnv({
        dir: cacheDir,
        owner: configOwner(file),
        env: this.options.env,
        warn: this.options.warn ?? ((text) => process.stderr.write(text)),
      });
      this.madeStore = new SessionStore(
        {
          dir: cacheDir,
          scopeKey: userKeysOf(digest, (key) => this.scopeKey(key)),
          backend,
          run: runId(this.options.env),
          redact: (text) => this.redactor.redact(text),
          observe: (event) => this.record(event),
          // With the cache off, a registered passkey nothing seals lives in this process only.
          inMemory: async (user) => cacheOff(this.options.env) && (await this.registersUnsealed(user)),
        },
        {
          // Signing in or refreshing is what can print the config's secrets: the config is opened
          // first, which registers them in the redactor.
          signIn: async (user, passkey) => {
            await this.refuseUnsealedPasskey(user);
            return signInUser((await this.open()).plan, user, { ...this.authOptions(), ...(passkey ? { passkey } : {}) });
          },
          refresh: async (session, passkey) => {
            await this.refuseUnsealedPasskey(session.user);
            return refreshSignIn((await this.open()).plan, session, { ...this.authOptions(), ...(passkey ? { passkey } : {}) });
          },
          hasPasskey: async (user) => (await this.open()).plan.users.some((u) => u.name === user && u.passkey !== undefined),
          checks: (user) => this.digest?.checkedUsers.includes(user) === true,
          check: async (session) => checkStoredSession((await this.open()).plan, session, this.authOptions()),
        },
      );
      return this.madeStore;
    });
    return this.sessions;
  }

  /**
   * The checked digest another process of this run left (or the last run's, carried over checked:
   * `carriedDigest`), or this worker's own opening of the config. With a digest no process of the
   * run may have opened the config, so the first to take one tidies the cache as an opening would.
   */
  private async digestOrOpen(): Promise<RunDigest> {
    if (this.digest) return this.digest;
    const { file, cacheDir, key } = this.locate();
    const found = key === undefined ? undefined : readRunDigest(cacheDir, key, runId(this.options.env));
    if (found?.checked) {
      this.digest = found;
      await this.tidy(file, cacheDir, found).catch(() => undefined);
      return found;
    }
    const opened = await this.open();
    return (this.digest ??= digestOf(opened, runId(this.options.env), true));
  }

  private locate(): { file: string; cacheDir: string; key: string | undefined } {
    if (this.located) return this.located;
    try {
      const { configPath, baseDir, env } = this.options;
      const file = configFile({
        file: configPath ?? env.MULTIAUTH_CONFIG,
        baseDir,
        notFoundHint: "Create multiauth.yaml beside playwright.config.ts, or set the path with test.use({ authConfig: '...' }) or MULTIAUTH_CONFIG.",
      });
      let key: string | undefined;
      try {
        key = quickConfigKey(file, env);
      } catch {
        // Unreadable: opening the config says why, located and with a hint.
      }
      this.located = { file, cacheDir: cacheDirFor(file, env, baseDir), key };
      return this.located;
    } catch (error) {
      throw toSpecError(error, this.redactor);
    }
  }

  /** Opens the config once per worker (the loader, schema and compiler load then), and leaves the run's digest. */
  private open(): Promise<OpenedConfig> {
    this.opening ??= (async () => {
      const { file, cacheDir, key } = this.locate();
      try {
        const opened = await openConfig({
          file,
          baseDir: this.options.baseDir,
          env: this.options.env,
          notFoundHint: '',
          redactor: this.redactor,
          // An unset variable fails the tests of the users that need it, not the whole run.
          deferMissingEnv: true,
        });
        this.digest = digestOf(opened, runId(this.options.env), true);
        if (key !== undefined) writeRunDigest(cacheDir, key, this.digest);
        this.showWarnings(opened, cacheDir);
        await this.tidy(file, cacheDir, this.digest);
        await this.updateUserTypes(file, this.digest.users);
        return opened;
      } catch (error) {
        throw toSpecError(error, this.redactor);
      }
    })();
    return this.opening;
  }

  /** The config's warnings, written by the first worker of the run that opens the config. */
  private showWarnings({ file, warnings, loaded }: OpenedConfig, cacheDir: string): void {
    if (warnings.length === 0 || !firstInRun(cacheDir, `warnings\0${loaded.contentHash}\0${runId(this.options.env)}`)) return;
    const count = `${warnings.length} warning${warnings.length === 1 ? '' : 's'}`;
    const text = `playwright-multiauth: ${count} in ${file} (shown once per run; \`multiauth validate\` lists them too):\n${warnings.map(renderIssue).join('\n')}\n`;
    (this.options.warn ?? ((t: string) => process.stderr.write(t)))(text);
  }

  /**
   * Once per run, by the first worker that opens the config: removes the session files of this
   * config that no user reaches any more (a user edited or removed), so `.auth/` does not grow
   * with every edit. Files of either cache mode stay reachable.
   */
  private async tidy(file: string, cacheDir: string, digest: RunDigest): Promise<void> {
    const run = runId(this.options.env);
    if (!existsSync(cacheDir) || !firstInRun(cacheDir, `tidy\0${file}\0${run}`)) return;
    const reachable = new Set<string>();
    digest.users.forEach((user, index) => {
      const key = digest.userKeys[index] as string;
      for (const scoped of [key, this.scopeKey(key), PASSKEY_KEY]) reachable.add(basename(sessionFilePath(cacheDir, scoped, user)));
    });
    (await loadTidyCache()).removeUnreachableSessions(cacheDir, configOwner(file), reachable);
  }

  /**
   * Warns, once per run (by the first worker that signs a user in), when the project's `baseURL`
   * is at another origin than every sign-in and validation URL of the config.
   */
  private checkBaseUrl(digest: RunDigest): void {
    if (this.baseUrlChecked) return;
    this.baseUrlChecked = true;
    const { file, cacheDir } = this.locate();
    const text = baseUrlMismatch(this.options.baseURL, digest.origins, digest.scope, file);
    if (text === undefined || !firstInRun(cacheDir, `base-url\0${digest.contentHash}\0${this.options.baseURL}\0${runId(this.options.env)}`)) return;
    (this.options.warn ?? ((t: string) => process.stderr.write(t)))(text);
  }

  /**
   * Keeps the declaration `multiauth types` wrote beside the config in step with the users: written
   * again only when the names differ, never created (a project that never asked for one gets none),
   * and never in CI (CI set), whose checkout should stay as it was committed. Best effort: a
   * declaration that cannot be written fails no test.
   */
  private async updateUserTypes(file: string, users: readonly string[]): Promise<void> {
    const ci = (this.options.env.CI ?? '').toLowerCase();
    if (ci !== '' && ci !== '0' && ci !== 'false') return;
    const { isOwnUserTypes, userTypesPath, writeUserTypes } = await loadUserTypes();
    const path = userTypesPath(file);
    try {
      if (isOwnUserTypes(path)) writeUserTypes(path, users, basename(file));
    } catch {
      // Read-only checkout or a race with another worker: the file is regenerated next time.
    }
  }

  private authOptions(): AuthenticateOptions {
    return { redactor: this.redactor, browser: this.options.browser };
  }

  /**
   * Sessions are reused across runs while valid unless MULTIAUTH_CACHE=off; then they are shared
   * within this run only.
   */
  private scopeKey(userKey: string): string {
    if (cacheOff(this.options.env)) return `${userKey}:run:${runId(this.options.env)}`;
    return userKey;
  }
}

/**
 * Each user's cache key from the digest, through `scoped`; a name the config does not have gets
 * the config's hash (its sign-in fails anyway).
 */
function userKeysOf(digest: RunDigest, scoped: (key: string) => string): (user: string) => string {
  const keys = new Map(digest.users.map((user, index) => [user, digest.userKeys[index] as string]));
  return (user) => scoped(keys.get(user) ?? digest.contentHash);
}

/**
 * Why a session was given up, in the run's words: `status 401`, `redirect to login`, from how a
 * request was refused (`triggerKind`).
 *
 * @example
 * refusalReason('401'); // 'status 401'
 */
export function refusalReason(refusal: string): string {
  if (/^\d{3}$/.test(refusal)) return `status ${refusal}`;
  return refusal === 'redirect' ? 'redirect to login' : refusal;
}
