import { renderIssue } from '../core/errors.js';
import { Redactor } from '../core/redactor.js';
import type { MtlsCertificate } from '../config/index.js';
import { authenticate, refreshSession, sessionSecrets, type AuthenticateOptions } from '../runtime/index.js';
import {
  SessionStore,
  cacheDirFor,
  configFile,
  digestOf,
  firstInRun,
  openConfig,
  quickConfigKey,
  readRunDigest,
  runId,
  writeRunDigest,
  type OpenedConfig,
  type ResolvedSession,
  type RunDigest,
} from '../sessions/index.js';
import { toSpecError } from './spec-error.js';

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
}

/**
 * Everything one Playwright worker needs to authenticate: the config, the run's redactor, and the
 * session store shared with the other workers through `.auth/`.
 *
 * The first worker of a run opens the config (reads, validates, compiles and checks it, shows its
 * warnings) and leaves a digest of it in the cache directory ({@link RunDigest}: hashes, user names,
 * the scope, nothing secret). The other workers start from that digest: while their users' sessions
 * are cached they never load the config's loader, schema, compiler or transport, which would cost
 * each of them more CPU than the rest of its start. Anything that needs the plan itself (a sign-in,
 * a refresh, mTLS certificates, a message to mask) opens the config first.
 */
export class WorkerAuth {
  readonly redactor = new Redactor();
  private located?: { file: string; cacheDir: string; key: string | undefined };
  private digest?: RunDigest;
  private opened?: OpenedConfig;
  private sessions?: SessionStore;
  /** Sessions whose secrets the redactor knows: every test asks for its user's, mostly the same one. */
  private readonly registered = new WeakSet<ResolvedSession['session']>();

  constructor(private readonly options: WorkerAuthOptions) {}

  /** The config's `scope`: origins that receive the injected credentials. */
  scope(): string[] {
    return this.digestOrOpen().scope;
  }

  /** The config's mTLS certificates when `user` presents them (paths absolute), else undefined. */
  mtlsCertificates(user: string): MtlsCertificate[] | undefined {
    if (!this.digestOrOpen().mtlsUsers.includes(user)) return undefined;
    const { plan } = this.open();
    return plan.mtls.length ? plan.mtls.map((c) => ({ ...c })) : undefined;
  }

  /** The user's session: from memory, the cache, or a sign-in (once across workers). */
  async session(user: string): Promise<ResolvedSession> {
    try {
      const resolved = await this.store().get(user);
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

  private store(): SessionStore {
    if (this.sessions) return this.sessions;
    const { contentHash } = this.digestOrOpen();
    this.sessions = new SessionStore(
      { dir: this.locate().cacheDir, scopeKey: this.scopeKey(contentHash) },
      {
        signIn: (user) => authenticate(this.open().plan, user, this.authOptions()),
        refresh: (session) => refreshSession(this.open().plan, session, this.authOptions()),
      },
    );
    return this.sessions;
  }

  /** The digest another worker of this run left, or this worker's own opening of the config. */
  private digestOrOpen(): RunDigest {
    if (this.digest) return this.digest;
    try {
      const { cacheDir, key } = this.locate();
      const digest = key === undefined ? undefined : readRunDigest(cacheDir, key, runId(this.options.env));
      if (digest?.checked) {
        this.digest = digest;
        // Masking needs the config's secrets: the first text to mask opens the config, which
        // registers them in this redactor. A config that no longer opens has no more to mask.
        this.redactor.addLazily(() => {
          try {
            this.open();
          } catch {
            // The error reaches whoever asks for the plan next.
          }
          return [];
        });
        return digest;
      }
    } catch (error) {
      throw toSpecError(error, this.redactor);
    }
    const opened = this.open();
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

  private open(): OpenedConfig {
    if (this.opened) return this.opened;
    try {
      const { file, cacheDir, key } = this.locate();
      const opened = openConfig({ file, baseDir: this.options.baseDir, env: this.options.env, notFoundHint: '', redactor: this.redactor });
      this.opened = opened;
      this.digest = digestOf(opened, runId(this.options.env), true);
      if (key !== undefined) writeRunDigest(cacheDir, key, this.digest);
      this.showWarnings(opened, cacheDir);
      return opened;
    } catch (error) {
      throw toSpecError(error, this.redactor);
    }
  }

  /** The config's warnings, written by the first worker of the run that opens the config. */
  private showWarnings({ file, warnings, loaded }: OpenedConfig, cacheDir: string): void {
    if (warnings.length === 0 || !firstInRun(cacheDir, `warnings\0${loaded.contentHash}\0${runId(this.options.env)}`)) return;
    const count = `${warnings.length} warning${warnings.length === 1 ? '' : 's'}`;
    const text = `playwright-multiauth: ${count} in ${file} (shown once per run; \`multiauth validate\` lists them too):\n${warnings.map(renderIssue).join('\n')}\n`;
    (this.options.warn ?? ((t: string) => process.stderr.write(t)))(text);
  }

  private authOptions(): AuthenticateOptions {
    return { redactor: this.redactor, browser: this.options.browser };
  }

  /**
   * Sessions are reused across runs while valid unless MULTIAUTH_CACHE=off; then they are shared
   * within this run only.
   */
  private scopeKey(contentHash: string): string {
    const mode = (this.options.env.MULTIAUTH_CACHE ?? 'on').toLowerCase();
    if (mode === 'off' || mode === '0' || mode === 'false') return `${contentHash}:run:${runId(this.options.env)}`;
    return contentHash;
  }
}
