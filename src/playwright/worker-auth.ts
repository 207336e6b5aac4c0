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
  /** Sessions whose secrets the redactor knows: every test asks for its user's, mostly the same one. */
  private readonly registered = new WeakSet<ResolvedSession['session']>();

  constructor(private readonly options: WorkerAuthOptions) {}

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

  /** The user's session: from memory, the cache, or a sign-in (once across workers). */
  async session(user: string): Promise<ResolvedSession> {
    try {
      const resolved = await (await this.store()).get(user);
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

  private store(): Promise<SessionStore> {
    this.sessions ??= this.digestOrOpen().then(({ contentHash }) => new SessionStore(
      { dir: this.locate().cacheDir, scopeKey: this.scopeKey(contentHash) },
      {
        // Signing in or refreshing is what can print the config's secrets: the config is opened
        // first, which registers them in the redactor.
        signIn: async (user) => authenticate((await this.open()).plan, user, this.authOptions()),
        refresh: async (session) => refreshSession((await this.open()).plan, session, this.authOptions()),
      },
    ));
    return this.sessions;
  }

  /** The checked digest another worker of this run left, or this worker's own opening of the config. */
  private async digestOrOpen(): Promise<RunDigest> {
    if (this.digest) return this.digest;
    const { cacheDir, key } = this.locate();
    const found = key === undefined ? undefined : readRunDigest(cacheDir, key, runId(this.options.env));
    if (found?.checked) return (this.digest = found);
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
        const opened = await openConfig({ file, baseDir: this.options.baseDir, env: this.options.env, notFoundHint: '', redactor: this.redactor });
        this.digest = digestOf(opened, runId(this.options.env), true);
        if (key !== undefined) writeRunDigest(cacheDir, key, this.digest);
        this.showWarnings(opened, cacheDir);
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
