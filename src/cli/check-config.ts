import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { ConfigInvalidError, MultiAuthError, renderIssue, type ConfigIssue } from '../core/errors.js';
import { Redactor } from '../core/redactor.js';
import { findConfigFile, loadConfig, sortIssues, type LoadedConfig } from '../config/index.js';
import { checkPlan, compile, planSecrets, resolvePlanPaths, type Plan } from '../compile/index.js';
import { preflight } from '../runtime/engine/preflight.js';
import type { CliIo } from './io.js';

/** A config that loaded and compiled, with every issue found, each located. */
export interface CheckedConfig {
  loaded: LoadedConfig;
  plan: Plan;
  /** Warnings of the loader, then issues of the plan checks and preflight, in file order. */
  issues: ConfigIssue[];
  /** Knows the plan's secrets: pass every text printed about this config through it. */
  redactor: Redactor;
}

/**
 * The config file a command reads: `-c FILE` resolved against the working directory, else
 * `multiauth.yaml` (`.yml`, `.json`) there.
 *
 * @throws MultiAuthError `CONFIG_NOT_FOUND` when no file is given and none is found.
 * @example
 * resolveConfigFile(values.config as string | undefined, io); // '/repo/multiauth.yaml'
 */
export function resolveConfigFile(option: string | undefined, io: CliIo): string {
  if (option !== undefined) return resolve(io.cwd, option);
  const found = findConfigFile(io.cwd);
  if (found) return found;
  throw new MultiAuthError('CONFIG_NOT_FOUND', `no multiauth.yaml, multiauth.yml or multiauth.json in ${io.cwd}`, {
    hint: 'Create multiauth.yaml (see docs/format.md and examples/), or pass the config file with -c FILE.',
  });
}

/**
 * Loads, compiles and checks a config, as `multiauth validate` does: schema and cross-checks,
 * compilation (which parses the curl commands), `checkPlan`, then the runtime's `preflight` (browser
 * commands); every issue located at its `file:line:col`. Only `compile` and the checks after it are
 * skipped with `{ checks: false }` (for commands that only need the plan).
 *
 * @throws ConfigInvalidError when the config does not load or compile (every issue, located).
 * @throws MultiAuthError for a file that cannot be read or parsed.
 * @example
 * const { plan, issues } = checkConfig('/repo/multiauth.yaml', io);
 */
export function checkConfig(file: string, io: CliIo, options: { checks?: boolean } = {}): CheckedConfig {
  const loaded = loadConfig(file, { env: io.env });
  let plan: Plan;
  try {
    plan = resolvePlanPaths(compile(loaded.config, { file, locate: loaded.locate }), dirname(resolve(loaded.file)));
  } catch (error) {
    // The loader's warnings are shown with the compile errors, in file order.
    if (error instanceof ConfigInvalidError) throw new ConfigInvalidError(file, sortIssues([...loaded.warnings, ...error.issues]));
    throw error;
  }
  const found = options.checks === false ? [] : [...checkPlan(plan), ...preflight(plan)];
  const located = found.map((issue) => (issue.location ? issue : { ...issue, location: loaded.locate(issue.path) }));
  return {
    loaded,
    plan,
    issues: sortIssues([...loaded.warnings, ...located]),
    redactor: new Redactor().add(...planSecrets(plan)),
  };
}

/**
 * Config issues as compiler-style lines (`file:line:col  path: message`), file names shown
 * relative to the working directory, then a count. Text goes through `redactor` when given.
 *
 * @example
 * io.stderr.write(renderIssues(error.issues, io.cwd));
 * // multiauth.yaml:14:7  presets[2].users[0].password: expected string, got number
 * // multiauth.yaml: 1 error
 */
export function renderIssues(issues: readonly ConfigIssue[], cwd: string, file?: string, redactor?: Redactor): string {
  const lines = issues.map((issue) =>
    renderIssue(issue.location ? { ...issue, location: { ...issue.location, file: displayPath(issue.location.file, cwd) } } : issue),
  );
  const errors = issues.filter((i) => i.severity === 'error').length;
  const warnings = issues.length - errors;
  const counts = [errors ? plural(errors, 'error') : '', warnings ? plural(warnings, 'warning') : ''].filter(Boolean).join(', ');
  if (file !== undefined && counts) lines.push(`${displayPath(file, cwd)}: ${counts}`);
  const text = lines.length ? `${lines.join('\n')}\n` : '';
  return redactor ? redactor.redact(text) : text;
}

/**
 * A path as users typed it: relative to `cwd` when it is inside it, else as is.
 *
 * @example
 * displayPath('/repo/multiauth.yaml', '/repo'); // 'multiauth.yaml'
 */
export function displayPath(file: string, cwd: string): string {
  if (!isAbsolute(file)) return file;
  const rel = relative(cwd, file);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? file : rel;
}

/**
 * `1 user`, `2 users`.
 *
 * @example
 * plural(2, 'procedure'); // '2 procedures'
 */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/**
 * {@link checkConfig} for commands that need a usable config: prints every issue (errors, then
 * warnings, secrets masked) and returns the checked config, or undefined when it has errors (the
 * command then exits with `ExitCode.INVALID`).
 *
 * @example
 * const checked = usableConfig(file, io);
 * if (!checked) return ExitCode.INVALID;
 */
export function usableConfig(file: string, io: CliIo): CheckedConfig | undefined {
  let checked: CheckedConfig;
  try {
    checked = checkConfig(file, io);
  } catch (error) {
    if (!(error instanceof ConfigInvalidError)) throw error;
    io.stderr.write(renderIssues(error.issues, io.cwd, file));
    return undefined;
  }
  const { issues, redactor } = checked;
  if (issues.some((issue) => issue.severity === 'error')) {
    io.stderr.write(renderIssues(issues, io.cwd, file, redactor));
    return undefined;
  }
  if (issues.length) io.stderr.write(renderIssues(issues, io.cwd, undefined, redactor));
  return checked;
}
