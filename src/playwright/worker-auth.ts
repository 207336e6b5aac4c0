import { isAbsolute, dirname, resolve } from 'node:path';
import { renderIssue } from '../core/errors.js';
import { Redactor } from '../core/redactor.js';
import type { Plan } from '../compile/plan.js';
import { authenticate, refreshSession, type AuthenticateOptions } from '../runtime/engine/authenticate.js';
import { sessionSecrets } from '../runtime/session/apply.js';
import { SessionStore, firstInRun, openConfig, type OpenedConfig, type ResolvedSession } from '../sessions/index.js';
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
 * Everything one Playwright worker needs to authenticate: the config, opened once per worker
 * (lazily, on the first test that names a user), the run's redactor, and the session store shared
 * with the other workers through `.auth/`.
 */
export class WorkerAuth {
  readonly redactor = new Redactor();
  private opened?: { config: OpenedConfig; store: SessionStore };
  /** Sessions whose secrets the redactor knows: every test asks for its user's, mostly the same one. */
  private readonly registered = new WeakSet<ResolvedSession['session']>();

  constructor(private readonly options: WorkerAuthOptions) {}

  /** The compiled plan (opens the config on first use). */
  plan(): Plan {
    return this.open().config.plan;
  }

  /** The user's session: from memory, the cache, or a sign-in (once across workers). */
  async session(user: string): Promise<ResolvedSession> {
    const { store } = this.open();
    try {
      const resolved = await store.get(user);
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

  private open(): { config: OpenedConfig; store: SessionStore } {
    if (this.opened) return this.opened;
    try {
      const { configPath, baseDir, env } = this.options;
      const config = openConfig({
        file: configPath ?? env.MULTIAUTH_CONFIG,
        baseDir,
        env,
        notFoundHint: "Create multiauth.yaml beside playwright.config.ts, or set the path with test.use({ authConfig: '...' }) or MULTIAUTH_CONFIG.",
        redactor: this.redactor,
      });
      const { plan, loaded } = config;
      const cacheDir = this.cacheDir(config.file);
      const store = new SessionStore(
        { dir: cacheDir, scopeKey: this.scopeKey(loaded.contentHash) },
        {
          signIn: (user) => authenticate(plan, user, this.authOptions()),
          refresh: (session) => refreshSession(plan, session, this.authOptions()),
        },
      );
      this.opened = { config, store };
      this.showWarnings(config, cacheDir);
      return this.opened;
    } catch (error) {
      throw toSpecError(error, this.redactor);
    }
  }

  /** The config's warnings, written by the first worker of the run that opens the config. */
  private showWarnings({ file, warnings, loaded }: OpenedConfig, cacheDir: string): void {
    if (warnings.length === 0 || !firstInRun(cacheDir, `warnings\0${loaded.contentHash}\0${this.runId()}`)) return;
    const count = `${warnings.length} warning${warnings.length === 1 ? '' : 's'}`;
    const text = `playwright-multiauth: ${count} in ${file} (shown once per run; \`multiauth validate\` lists them too):\n${warnings.map(renderIssue).join('\n')}\n`;
    (this.options.warn ?? ((t: string) => process.stderr.write(t)))(text);
  }

  private authOptions(): AuthenticateOptions {
    return { redactor: this.redactor, browser: this.options.browser };
  }

  private cacheDir(configFile: string): string {
    const dir = this.options.env.MULTIAUTH_CACHE_DIR;
    if (dir) return isAbsolute(dir) ? dir : resolve(this.options.baseDir, dir);
    return resolve(dirname(configFile), '.auth');
  }

  /** Workers are children of one runner process, so its pid names the run; MULTIAUTH_RUN_ID overrides it. */
  private runId(): string {
    return this.options.env.MULTIAUTH_RUN_ID ?? String(process.ppid);
  }

  /**
   * Sessions are reused across runs while valid unless MULTIAUTH_CACHE=off; then they are shared
   * within this run only.
   */
  private scopeKey(contentHash: string): string {
    const mode = (this.options.env.MULTIAUTH_CACHE ?? 'on').toLowerCase();
    if (mode === 'off' || mode === '0' || mode === 'false') return `${contentHash}:run:${this.runId()}`;
    return contentHash;
  }
}
