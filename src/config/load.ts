import { createHash } from 'node:crypto';
import { dirname, extname, join } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { ConfigInvalidError, MultiAuthError, type ConfigIssue, type SourceLocation } from '../core/errors.js';
import { formatPath, type ConfigPath } from '../core/path.js';
import { crossCheck } from './cross-check.js';
import { environmentFor, substituteEnv, substitutedText, type Env } from './env.js';
import { schemaIssues } from './issues.js';
import { AuthConfig } from './schema/index.js';
import { isObject } from './schema-at.js';
import { SourceMap } from './source-map.js';
import { syntaxIssues } from './syntax.js';
import { checkDocumentShape, checkExpandedSize, CONFIG_LIMITS, readConfigFile } from './limits.js';
export { CONFIG_FILE_NAMES, findConfigFile } from '../core/config-file.js';

/** A config file that was read, env-substituted and validated (schema and cross-checks). */
export interface LoadedConfig {
  /** The path as given (used in messages). */
  file: string;
  /** The validated config. */
  config: AuthConfig;
  /** Problems that do not stop the config from being used, each located. */
  warnings: ConfigIssue[];
  /** Position of the node at `path`, or of its nearest ancestor that is written in the file. */
  locate(path: ConfigPath): SourceLocation | undefined;
  /** SHA-256 (hex) of the file text after environment substitution: the session cache key. */
  contentHash: string;
  /**
   * With `deferMissingEnv`: the unset `${NAME}`s, one located error each (their values read as
   * empty). The users whose part of the config holds one cannot sign in (`markMissingEnv`); the
   * others can. Empty otherwise.
   */
  missingEnv: ConfigIssue[];
}

/** Options of {@link loadConfig} and {@link parseConfig}. */
export interface LoadOptions {
  /** Environment for `${NAME}`; default `process.env`. */
  env?: Record<string, string | undefined>;
  /**
   * true: an unset `${NAME}` is not an error of the whole file but of the users that need it (see
   * `LoadedConfig.missingEnv`), when nothing else is wrong. For running tests; `validate` lists them.
   */
  deferMissingEnv?: boolean;
  /** How the caller's user names another config file, for hints (the CLI: `-c FILE`). */
  chooseOther?: string;
}

const EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/**
 * Reads, substitutes and validates a config file, synchronously (Playwright config files need the
 * user names before anything async can run). The `.env` beside the file fills in environment
 * variables that the real environment does not set.
 *
 * @throws {MultiAuthError} `CONFIG_NOT_FOUND` when the file cannot be read; `CONFIG_SYNTAX` for an
 *   unknown extension.
 * @throws {ConfigInvalidError} with every issue of the file, sorted by position.
 * @example
 * const { config, warnings } = loadConfig('multiauth.yaml');
 * console.log(config.users.map((u) => u.name));
 */
export function loadConfig(file: string, options: LoadOptions = {}): LoadedConfig {
  const extension = extname(file).toLowerCase();
  if (!EXTENSIONS.has(extension)) {
    throw new MultiAuthError('CONFIG_SYNTAX', `${file}: unknown config file type "${extension || '(none)'}"`, {
      hint: 'Name the config file *.yaml, *.yml or *.json.',
    });
  }
  const text = readConfigFile(file, options.chooseOther);
  return parseConfig(text, file, { ...options, dotenvDir: dirname(file) });
}

/**
 * Parses, substitutes and validates config text; `file` is only used in messages (and its `.json`
 * extension selects JSON syntax messages). JSON is parsed as YAML, so positions work the same.
 * `.env` is read from `dotenvDir` when given.
 *
 * @throws {ConfigInvalidError} with every issue of the text, sorted by position.
 * @example
 * const loaded = parseConfig('users:\n  - name: alice\n    credentials: { username: alice, password: "${PW}" }\n',
 *   'inline.yaml', { env: { PW: 'secret' } });
 * loaded.config.users[0]?.credentials?.password; // 'secret'
 */
export function parseConfig(text: string, file: string, options: LoadOptions & { dotenvDir?: string } = {}): LoadedConfig {
  const lineCounter = new LineCounter();
  // logLevel 'error': yaml would print a process warning (quoting the file's text) for a key that is a
  // map or a list; such a key becomes a string key that the schema then reports where it is.
  // uniqueKeys: false: yaml's check is quadratic; duplicates are found in one pass instead.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, merge: true, uniqueKeys: false, logLevel: 'error' });
  if (doc.errors.length === 0) checkDocumentShape(doc);
  const map = new SourceMap(doc, lineCounter, file, text);

  const syntax = syntaxIssues(doc, map, extname(file).toLowerCase() === '.json');
  if (syntax.some((i) => i.severity === 'error')) throw new ConfigInvalidError(file, sortIssues(syntax), 'CONFIG_SYNTAX');

  const envFile = options.dotenvDir === undefined ? undefined : join(options.dotenvDir, '.env');
  const env: Env = environmentFor(options.dotenvDir, options.env ?? process.env);
  const substitution = substituteEnv(doc, env, map,
    envFile ? `Set {name} in the environment, or in ${envFile} beside the config.` : 'Set {name} in the environment.',
    options.deferMissingEnv ? '' : undefined);
  const deferred = options.deferMissingEnv ? substitution.issues.filter((i) => /^environment variable \S+ is not set( \(did you mean "\S+"\?\))?$/.test(i.message)) : [];

  const issues: ConfigIssue[] = [...syntax, ...substitution.issues.filter((i) => !deferred.includes(i))];
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: CONFIG_LIMITS.aliasCount });
  } catch (error) {
    const issue: ConfigIssue = {
      severity: 'error', path: [], location: map.at(0), message: lowerFirst((error as Error).message), hint: 'Use fewer aliases (*name).',
    };
    throw new ConfigInvalidError(file, [issue], 'CONFIG_SYNTAX');
  }
  checkExpandedSize(data, file);
  let config: AuthConfig | undefined;
  if (!isObject(data)) {
    issues.push({
      severity: 'error', path: [], location: map.locate([]),
      message: data === null || data === undefined ? 'the config is empty' : `the config must be an object, got ${Array.isArray(data) ? 'a list' : typeof data}`,
      hint: 'Declare "presets", "procedures" and "users" at the top level (see docs/format.md).',
    });
  } else {
    const result = AuthConfig.safeParse(data);
    const checked = result.success
      ? crossCheck(result.data, map)
      : schemaIssues(result.error.issues, { schema: AuthConfig, data, map });
    issues.push(...checked.filter((i) => !substitution.failedPaths.has(formatPath(i.path))));
    if (result.success) config = result.data;
  }

  for (const issue of issues) issue.location ??= map.at(0);
  const errors = issues.filter((i) => i.severity === 'error');
  if (errors.length > 0 || !config) {
    // Deferring is for a config that is otherwise sound: with other errors, all are reported.
    const all = sortIssues([...issues, ...deferred]);
    const envOnly = all.some((i) => i.severity === 'error') && all.filter((i) => i.severity === 'error').every((e) => substitution.issues.includes(e));
    throw new ConfigInvalidError(file, all, envOnly ? 'CONFIG_ENV_MISSING' : 'CONFIG_INVALID');
  }
  return {
    file,
    config,
    warnings: sortIssues(issues),
    locate: (path) => map.locate(path),
    contentHash: createHash('sha256').update(substitutedText(text, substitution.edits)).digest('hex'),
    missingEnv: sortIssues(deferred),
  };
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/**
 * Issues in file order (line, then column); issues without a position keep their order, last.
 *
 * @example
 * sortIssues(issues).map(renderIssue).join('\n');
 */
export function sortIssues(issues: readonly ConfigIssue[]): ConfigIssue[] {
  const rank = (i: ConfigIssue) => (i.location ? i.location.line * 1e6 + i.location.column : Infinity);
  return [...issues].sort((a, b) => rank(a) - rank(b));
}

