import { dirname, isAbsolute, relative } from 'node:path';
import { renderIssue, type ConfigIssue } from '../core/errors.js';
import type { Redactor } from '../core/redactor.js';
import { openConfig, type OpenedConfig } from '../sessions/index.js';
import type { CliIo } from './io.js';

/**
 * Opens the config a command reads, as the fixtures do (see `openConfig`): `-c FILE` resolved
 * against the working directory (`-c DIR`: the config in DIR), else `multiauth.yaml` (`.yml`,
 * `.json`) there; when there is none but a parent folder has one, the error names it. Hints name
 * `-c`, the only way the CLI takes a config. `{ checks: false }` skips the checks after compiling,
 * for commands that only need the plan; `{ deferMissingEnv: true }` fails only the users that
 * need an unset `${NAME}`, for commands that sign several users in.
 *
 * @throws MultiAuthError `CONFIG_NOT_FOUND` when no file is given and none is found.
 * @throws ConfigInvalidError with every issue, located and masked, when the config has errors.
 * @example
 * const { plan, warnings } = await openCliConfig(values.config as string | undefined, io);
 */
export async function openCliConfig(
  option: string | undefined,
  io: CliIo,
  options: { checks?: boolean; deferMissingEnv?: boolean } = {},
): Promise<OpenedConfig> {
  return openConfig({
    file: option,
    baseDir: io.cwd,
    env: io.env,
    notFoundHint: 'Create multiauth.yaml (see docs/format.md and examples/), or pass the config file with -c FILE.',
    foundAboveHint: (found) => `Pass it with -c ${relative(io.cwd, found)}, or run multiauth in ${dirname(found)}.`,
    chooseOther: '-c FILE',
    checks: options.checks,
    deferMissingEnv: options.deferMissingEnv === true,
  });
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
 * {@link openCliConfig} for commands that need a usable config: prints the warnings (secrets
 * masked) on stderr and returns the opened config. A config with errors throws, and `main` prints
 * every issue (and, with `--json`, the error as JSON) and exits with `ExitCode.INVALID`.
 *
 * @throws ConfigInvalidError as {@link openCliConfig}.
 * @example
 * const opened = await usableConfig(values.config as string | undefined, io);
 */
export async function usableConfig(option: string | undefined, io: CliIo, options: { deferMissingEnv?: boolean } = {}): Promise<OpenedConfig> {
  const opened = await openCliConfig(option, io, options);
  if (opened.warnings.length) io.stderr.write(renderIssues(opened.warnings, io.cwd, undefined, opened.redactor));
  return opened;
}
