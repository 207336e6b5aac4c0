import { dirname } from 'node:path';
import { ConfigInvalidError, MultiAuthError, type ConfigIssue } from '../core/errors.js';
import { redactIssue } from '../core/error-context.js';
import { Redactor } from '../core/redactor.js';
import { loadConfig, sortIssues, type LoadedConfig } from '../config/index.js';
import { checkPlan, compile, markMissingEnv, registerPlan, resolvePlanPaths, signsInOnPages, signsInOverHttp, type Plan } from '../compile/index.js';
import { configFile } from './config-file.js';

/** Options of {@link openConfig}. */
export interface OpenConfigOptions {
  /**
   * The config file the user named (`-c FILE`, the `authConfig` option, `MULTIAUTH_CONFIG`...),
   * relative to `baseDir` unless absolute; undefined: look for one in `baseDir`.
   */
  file?: string;
  /**
   * Where relative paths resolve from and where the config is looked for: the Playwright config's
   * folder inside Playwright, the current folder in the CLI.
   */
  baseDir: string;
  /** Environment for `${NAME}` (the `.env` beside the config fills in names it does not set). */
  env: Record<string, string | undefined>;
  /** The "Recommended fix" when no config is found: how this caller's user names one. */
  notFoundHint: string;
  /** The "Recommended fix" when none is in `baseDir` but a parent folder has one (see `configFile`). */
  foundAboveHint?: (found: string) => string;
  /** How this caller's user names another config file, for hints (the CLI: `-c FILE`). */
  chooseOther?: string;
  /**
   * false: stop after compiling, without `checkPlan` and `preflight` (warnings then are the
   * loader's only), for callers that need only the users. Default true.
   */
  checks?: boolean;
  /** Registers the plan's secrets in this redactor instead of a new one. */
  redactor?: Redactor;
  /**
   * The runtime's checks of a plan (`loadPreflight()`): required unless `checks` is false. Passed
   * in, not imported, so that loading this module does not load the browser runner's command
   * table: a worker whose sessions are cached starts without either.
   */
  preflight?: (plan: Plan) => ConfigIssue[];
  /**
   * true: an unset `${NAME}` fails only the users that need it (`PlanUser.missingEnv`, shown as a
   * warning), not the whole config; for running tests. Default false: every one is an error.
   */
  deferMissingEnv?: boolean;
}

/** A config ready to sign users in with. */
export interface OpenedConfig {
  /** The config file, absolute. */
  file: string;
  /** The config as loaded, with `locate` for positions and `contentHash` for the session cache. */
  loaded: LoadedConfig;
  /** The compiled plan, its file paths absolute. */
  plan: Plan;
  /** Problems that do not stop the config from being used, each located, in file order, masked. */
  warnings: ConfigIssue[];
  /** Knows the plan's secrets: every text printed about this config goes through it. */
  redactor: Redactor;
  /** Users who sign in (and refresh) with HTTP requests alone (compile's `signsInOverHttp`): for the run's digest. */
  httpUsers: string[];
  /** Users who sign in with browser steps and HTTP requests alone (compile's `signsInOnPages`): for the run's digest. */
  browserUsers: string[];
}

/**
 * Opens a config the one way the CLI, the fixtures and the role matrix share: finds the file
 * (`multiauth.yaml`, `.yml`, `.json`), loads it (YAML or JSON, `${ENV}` and `.env`), validates it,
 * compiles it, makes the plan's paths absolute, runs `checkPlan` and the runtime's `preflight`,
 * locates every issue at `file:line:col` (compile errors too), and registers the plan's secrets.
 *
 * @throws MultiAuthError `CONFIG_NOT_FOUND` when there is no config (with `notFoundHint`), or the
 *   file cannot be read.
 * @throws ConfigInvalidError with every issue of the file (warnings too), located, sorted and masked,
 *   when any is an error.
 * @example
 * const { plan, warnings, redactor } = openConfig({
 *   baseDir: process.cwd(), env: process.env, notFoundHint: 'Pass the config file with -c FILE.',
 *   preflight: await loadPreflight(),
 * });
 */
export function openConfig(options: OpenConfigOptions): OpenedConfig {
  const file = configFile(options);
  const loaded = loadConfig(file, {
    env: options.env,
    deferMissingEnv: options.deferMissingEnv === true,
    ...(options.chooseOther === undefined ? {} : { chooseOther: options.chooseOther }),
  });
  return checkConfig(loaded, file, options);
}

/**
 * What {@link openConfig} does once the file is loaded: compiles it, makes the plan's paths
 * absolute (from `file`'s folder), runs `checkPlan` and the runtime's `preflight`, locates every
 * issue and registers the plan's secrets. For a config whose text the caller already parsed (the
 * bad-config corpus shows every error `multiauth validate` would, not only the loader's).
 *
 * @throws ConfigInvalidError as {@link openConfig}.
 * @example
 * const opened = checkConfig(parseConfig(text, 'multiauth.yaml'), 'multiauth.yaml', { preflight: await loadPreflight() });
 */
export function checkConfig(
  loaded: LoadedConfig,
  file: string,
  options: Pick<OpenConfigOptions, 'checks' | 'redactor' | 'preflight'> = {},
): OpenedConfig {
  const redactor = options.redactor ?? new Redactor();
  let plan: Plan;
  try {
    plan = resolvePlanPaths(compile(loaded.config, { file, locate: loaded.locate }), dirname(file));
  } catch (error) {
    // The loader's warnings are shown with the compile errors, in file order (compile masks the
    // curl commands it quotes; there is no plan yet whose secrets could mask more).
    if (error instanceof ConfigInvalidError) throw new ConfigInvalidError(file, sortIssues([...loaded.warnings, ...error.issues]));
    if (!(error instanceof MultiAuthError) || error.path === undefined) throw error;
    const issue: ConfigIssue = { severity: 'error', path: error.path, message: error.message, location: loaded.locate(error.path) };
    if (error.hint) issue.hint = error.hint;
    throw new ConfigInvalidError(file, sortIssues([...loaded.warnings, issue]));
  }
  registerPlan(redactor, plan);
  markMissingEnv(plan, loaded.missingEnv);
  if (options.checks !== false && !options.preflight) throw new Error('checkConfig needs options.preflight (loadPreflight()) unless checks is false');
  const found = options.checks === false ? [] : [...checkPlan(plan), ...(options.preflight as (plan: Plan) => ConfigIssue[])(plan)];
  const issues = sortIssues([
    ...loaded.warnings,
    ...missingEnvWarnings(plan, loaded.missingEnv),
    ...found.map((issue) => (issue.location ? issue : { ...issue, location: loaded.locate(issue.path) })),
  ]).map((issue) => redactIssue(issue, redactor));
  if (issues.some((issue) => issue.severity === 'error')) throw new ConfigInvalidError(file, issues);
  return { file, loaded, plan, warnings: issues, redactor, httpUsers: namesOf(plan, signsInOverHttp), browserUsers: namesOf(plan, signsInOnPages) };
}

/** The names of the plan's users `which` holds for. */
function namesOf(plan: Plan, which: (plan: Plan, user: Plan['users'][number]) => boolean): string[] {
  return plan.users.filter((user) => which(plan, user)).map((user) => user.name);
}

/** A deferred unset variable as a warning that names the users who cannot sign in because of it. */
function missingEnvWarnings(plan: Plan, missing: readonly ConfigIssue[]): ConfigIssue[] {
  return missing.map((issue) => {
    const users = plan.users.filter((user) => user.missingEnv?.includes(issue)).map((user) => user.name);
    const who = users.length ? `${users.length === 1 ? 'user' : 'users'} ${users.join(', ')} cannot sign in` : 'no user needs it';
    return { ...issue, severity: 'warning', message: `${issue.message}: ${who}` };
  });
}
