import { MultiAuthError } from '../core/errors.js';
import { cacheDirFor, carriedDigest, configFile, digestNow, quickConfigKey, readRunDigest, runId, writeRunDigest } from '../sessions/index.js';
import { playwrightConfigDir } from './config-dir.js';
import type { ProjectFiles } from './plain-test-import.js';
import { lazyModule } from '../core/lazy-module.js';
import { toSpecError } from './spec-error.js';
import { shareWorkers, WORKER_SHARE_ENV } from './worker-share.js';
import { MATRIX_USER_KEY } from './sign-in-report.js';
import type { AuthUserName } from './user-names.js';
import type { MailSource } from '../runtime/index.js';

/** Options of {@link authUsers} and {@link authProjects}. */
export interface RoleMatrixOptions {
  /**
   * Config path, relative to the Playwright config's folder (see {@link authUsers}); default
   * MULTIAUTH_CONFIG, then `multiauth.yaml`, `.yml` or `.json` in that folder.
   */
  config?: string;
  /** Only these users, in this order (each must be declared; typed by `multiauth types`). */
  users?: AuthUserName[];
  /**
   * `authProjects` only: the run's `workers` when `playwright.config.ts` sets them (pass the same
   * value; Playwright does not show it while the config loads). With it the users' projects share
   * the workers as {@link shareWorkers} says; without it the command line's `--workers`, else
   * Playwright's default, is assumed.
   */
  workers?: number | string;
  /**
   * `authProjects` only: sign the users in from the runner while it starts the workers (the
   * users whose sign-in is HTTP requests alone, and browser users of a CommonJS project's config;
   * see `signInAhead`). Default true;
   * `MULTIAUTH_SIGN_IN_AHEAD=off` turns it off too.
   */
  signInAhead?: boolean;
}

/**
 * The names of the configured users, synchronously, for loops that declare one describe per user.
 *
 * Relative paths resolve from the Playwright config's folder, as the fixtures' do. Playwright does
 * not say where its config is while files load, so that folder is found from the file that calls
 * `authUsers` (a spec, or the Playwright config itself): the nearest folder upward from it that
 * holds a `playwright.config.*` (`ts`, `js`, `mts`, `mjs`, `cts`, `cjs`), else the file's own
 * folder. With a config file named otherwise, in a folder below another Playwright config, pass an
 * absolute path (`${import.meta.dirname}/multiauth.yaml`).
 *
 * @example
 * for (const user of authUsers()) {
 *   test.describe(user, () => {
 *     test.use({ authUser: user });
 *     test('can open the dashboard', async ({ page }) => { await page.goto('/'); });
 *   });
 * }
 */
export function authUsers(options: RoleMatrixOptions = {}): AuthUserName[] {
  return usersOf(matrixConfig(options, playwrightConfigDir()), options.users) as AuthUserName[];
}

/**
 * One Playwright project per configured user (named `<project name>-<user>`, or the user's name),
 * each running the same specs as that user: a role matrix in `playwright.config.ts`. Paths resolve
 * as {@link authUsers}' do; each project's `authConfig` is the absolute path of the config read.
 * The runner warns of each spec file of the project that takes `test` from `@playwright/test`: its
 * tests would run signed out.
 *
 * When the users divide evenly among the run's workers, each user's project gets its share of them
 * as Playwright's per-project `workers` ({@link shareWorkers}): a worker then runs whole users, so
 * it starts once per user rather than once per user and worker, and users sign in side by side. A
 * `workers` of the project passed in is kept as it is. A config that sets `workers` passes the
 * same value in `options.workers`.
 *
 * @example
 * const workers = process.env.CI ? 2 : undefined;
 * export default defineConfig({
 *   workers,
 *   projects: authProjects({ name: 'api', testMatch: /api\/.*\.spec\.ts/ }, { users: ['admin', 'viewer'], workers }),
 * });
 */
export function authProjects<P extends { name?: string; use?: object; workers?: number | string }>(project: P, options: RoleMatrixOptions = {}): P[] {
  const configDir = playwrightConfigDir();
  const config = matrixConfig(options, configDir);
  const users = usersOf(config, options.users);
  const share = project.workers === undefined ? shareWorkers(users.length, { argv: process.argv, ...(options.workers === undefined ? {} : { given: options.workers }) }) : undefined;
  // The runner's assumption, for its workers (they inherit its environment): they know the run's real workers.
  if (share && process.env.TEST_WORKER_INDEX === undefined) process.env[WORKER_SHARE_ENV] = JSON.stringify(share);
  const projects = users.map((user) => ({
    ...project,
    ...(share?.perUser === undefined ? {} : { workers: share.perUser }),
    name: project.name ? `${project.name}-${user}` : user,
    use: { ...project.use, authUser: user, authConfig: config.file },
    // Whose project it is, for the warning when a spec's own authUser overrides it.
    metadata: { ...(project as { metadata?: object }).metadata, [MATRIX_USER_KEY]: user },
  }));
  // Only the runner signs in ahead and warns (its workers load the config too): they need not load either.
  if (process.env.TEST_WORKER_INDEX === undefined) {
    if (options.signInAhead !== false) {
      const ahead = { file: config.file, baseDir: configDir, projects: projects.map((p, i) => ({ user: users[i] as string, name: p.name })), env: process.env, argv: process.argv };
      void lazyModule(() => import('./sign-in-ahead.js'))
        .then(({ signInAhead }) => signInAhead(ahead))
        .catch(() => undefined);
    }
    const names = projects.map((p) => p.name);
    void lazyModule(() => import('./plain-test-import.js'))
      .then(({ warnPlainTestImports }) => warnPlainTestImports(project as ProjectFiles, configDir, names))
      // A warning that could not be worked out fails no run, as the files it reads may vanish.
      .catch(() => undefined);
  }
  return projects;
}

/** What the role matrix and the access matrix learn of a config while test files load. */
export interface MatrixConfig {
  /** The config file, absolute. */
  file: string;
  users: string[];
  /** The access matrix's users and request names, when the config has one. */
  access?: { users: string[]; requests: string[] };
  /** The config's mail source, when it has one (`mailSink()` reads the sink's ports). */
  mail?: MailSource;
}

/**
 * The config's user names (and access matrix), synchronously, from the run's digest or a child
 * process that opens the config (see {@link authUsers}).
 *
 * @example
 * matrixConfig({}, playwrightConfigDir()).access?.requests; // ['list users', ...]
 */
export function matrixConfig(options: Pick<RoleMatrixOptions, 'config'>, baseDir: string): MatrixConfig {
  const env = process.env;
  try {
    const file = configFile({
      file: options.config ?? env.MULTIAUTH_CONFIG,
      baseDir,
      notFoundHint: "Create multiauth.yaml beside playwright.config.ts, or pass the path: authProjects(project, { config: 'path/to/multiauth.yaml' }) or authUsers({ config: '...' }), or set MULTIAUTH_CONFIG.",
    });
    // Every worker loads playwright.config.ts again: after the runner, they read the names from the
    // digest the runner left instead of opening the config once more.
    const cacheDir = cacheDirFor(file, env, baseDir);
    let key: string | undefined;
    try {
      key = quickConfigKey(file, env);
    } catch {
      // Unreadable: opening the config says why.
    }
    const digest = key === undefined ? undefined : readRunDigest(cacheDir, key, runId(env));
    if (digest) return { file, users: digest.users, ...(digest.access ? { access: digest.access } : {}), ...(digest.mail ? { mail: digest.mail } : {}) };
    // The same text, .env and referenced variables (the key) name the same users as in the last run:
    // the runner starts without a config opening of its own, which every run paid before any worker
    // started. Carried over checked only when that run's check found nothing to show (carriedDigest);
    // else the run's first worker opens and checks the config again and shows its warnings.
    const earlier = key === undefined ? undefined : readRunDigest(cacheDir, key, undefined);
    if (earlier && key !== undefined) {
      writeRunDigest(cacheDir, key, carriedDigest(earlier, runId(env)));
      return { file, users: earlier.users, ...(earlier.access ? { access: earlier.access } : {}), ...(earlier.mail ? { mail: earlier.mail } : {}) };
    }
    // Opened on first need only (here or in a child, as digestNow says), so that the workers that
    // import the package do not load the parser, the schema and the compiler for it.
    const digested = digestNow({ file, baseDir, notFoundHint: '', run: runId(env) }, env);
    if (key !== undefined) writeRunDigest(cacheDir, key, digested);
    return { file, users: digested.users, ...(digested.access ? { access: digested.access } : {}), ...(digested.mail ? { mail: digested.mail } : {}) };
  } catch (error) {
    throw toSpecError(error);
  }
}

function usersOf(config: MatrixConfig, chosen: string[] | undefined): string[] {
  if (!chosen) return config.users;
  const unknown = chosen.filter((u) => !config.users.includes(u));
  if (unknown.length) {
    throw toSpecError(
      new MultiAuthError('USER_UNKNOWN', `unknown user${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `"${u}"`).join(', ')}`, {
        hint: `Configured users: ${config.users.join(', ')}.`,
      }),
    );
  }
  return [...chosen];
}
