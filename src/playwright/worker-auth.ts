import { dirname, isAbsolute, resolve } from 'node:path';
import { ConfigInvalidError, MultiAuthError, isMultiAuthError } from '../core/errors.js';
import { Redactor } from '../core/redactor.js';
import { loadConfig, findConfigFile, type LoadedConfig } from '../config/index.js';
import { compile, checkPlan, planSecrets, resolvePlanPaths } from '../compile/index.js';
import type { Plan } from '../compile/plan.js';
import { preflight } from '../runtime/engine/preflight.js';
import { authenticate, refreshSession, type AuthenticateOptions } from '../runtime/engine/authenticate.js';
import { sessionSecrets } from '../runtime/session/apply.js';
import { SessionStore, type ResolvedSession } from '../sessions/index.js';

/** Options of {@link WorkerAuth}: where things are and how sessions are kept. */
export interface WorkerAuthOptions {
  /** The config path as the user gave it (`authConfig` option or MULTIAUTH_CONFIG), or undefined. */
  configPath?: string;
  /** Directory relative paths resolve from: the Playwright config's directory. */
  baseDir: string;
  env: Record<string, string | undefined>;
  /** Opens a browser context for browser procedures (the worker's browser, launched lazily). */
  browser?: AuthenticateOptions['browser'];
}

/** Turns a config problem into an Error Playwright prints without a stack: it is the user's, not ours. */
export function asUserFacingError(error: unknown, redactor?: Redactor): unknown {
  if (!isMultiAuthError(error)) return error;
  const text = redactor ? redactor.redact(error.render()) : error.render();
  const out = new Error(`playwright-multiauth: ${text}`);
  out.stack = out.message;
  return out;
}

/**
 * Everything one Playwright worker needs to authenticate: the config, read, validated and compiled
 * once per worker (lazily, on the first test that names a user), the run's redactor, and the
 * session store shared with the other workers through `.auth/`.
 */
export class WorkerAuth {
  readonly redactor = new Redactor();
  private loaded?: { config: LoadedConfig; plan: Plan; store: SessionStore };
  /** Sessions whose secrets the redactor knows: every test asks for its user's, mostly the same one. */
  private readonly registered = new WeakSet<ResolvedSession['session']>();

  constructor(private readonly options: WorkerAuthOptions) {}

  /** The config file this worker uses. */
  configFile(): string {
    const { configPath, baseDir, env } = this.options;
    const given = configPath ?? env.MULTIAUTH_CONFIG;
    if (given) return isAbsolute(given) ? given : resolve(baseDir, given);
    const found = findConfigFile(baseDir);
    if (!found) {
      throw new MultiAuthError('CONFIG_NOT_FOUND', `no multiauth.yaml or multiauth.json in ${baseDir}`, {
        hint: "Create multiauth.yaml beside playwright.config.ts, or set the path with test.use({ authConfig: '...' }) or MULTIAUTH_CONFIG.",
      });
    }
    return found;
  }

  /** The compiled plan (loads the config on first use). */
  plan(): Plan {
    return this.load().plan;
  }

  /** The config as loaded, with `locate` for error positions. */
  config(): LoadedConfig {
    return this.load().config;
  }

  /** The user's session: from memory, the cache, or a sign-in (once across workers). */
  async session(user: string): Promise<ResolvedSession> {
    const { store } = this.load();
    try {
      const resolved = await store.get(user);
      const { session } = resolved;
      if (!this.registered.has(session)) {
        this.registered.add(session);
        this.redactor.addLazily(() => sessionSecrets(session));
      }
      return resolved;
    } catch (error) {
      throw asUserFacingError(error, this.redactor);
    }
  }

  private load(): { config: LoadedConfig; plan: Plan; store: SessionStore } {
    if (this.loaded) return this.loaded;
    try {
      const file = this.configFile();
      const config = loadConfig(file, { env: this.options.env });
      const plan = resolvePlanPaths(compile(config.config, { file: config.file, locate: config.locate }), dirname(file));
      const issues = [...checkPlan(plan), ...preflight(plan)].map((issue) => ({
        ...issue,
        location: issue.location ?? config.locate(issue.path),
      }));
      if (issues.some((i) => i.severity === 'error')) throw new ConfigInvalidError(config.file, issues);
      this.redactor.add(...planSecrets(plan));
      const store = new SessionStore(
        { dir: this.cacheDir(file), scopeKey: this.scopeKey(config.contentHash) },
        {
          signIn: (user) => authenticate(plan, user, this.authOptions()),
          refresh: (session) => refreshSession(plan, session, this.authOptions()),
        },
      );
      this.loaded = { config, plan, store };
      return this.loaded;
    } catch (error) {
      throw asUserFacingError(error, this.redactor);
    }
  }

  private authOptions(): AuthenticateOptions {
    return { redactor: this.redactor, browser: this.options.browser };
  }

  private cacheDir(configFile: string): string {
    const dir = this.options.env.MULTIAUTH_CACHE_DIR;
    if (dir) return isAbsolute(dir) ? dir : resolve(this.options.baseDir, dir);
    return resolve(dirname(configFile), '.auth');
  }

  /**
   * Sessions are reused across runs while valid unless MULTIAUTH_CACHE=off; then they are shared
   * within this run only: workers are children of one runner process, so its pid names the run.
   */
  private scopeKey(contentHash: string): string {
    const mode = (this.options.env.MULTIAUTH_CACHE ?? 'on').toLowerCase();
    if (mode === 'off' || mode === '0' || mode === 'false') {
      return `${contentHash}:run:${this.options.env.MULTIAUTH_RUN_ID ?? process.ppid}`;
    }
    return contentHash;
  }
}
