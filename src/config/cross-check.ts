import { compileUserRegex } from '../core/regex.js';
import type { ConfigIssue, SourceLocation } from '../core/errors.js';
import { formatPath, type ConfigPath } from '../core/path.js';
import type { AuthConfig } from './schema/index.js';
import { isObject } from './schema-at.js';
import { didYouMean } from '../core/suggest.js';

/** Finds the source position of a config path (a {@link SourceMap} or a loaded config). */
export interface Locator {
  locate(path: ConfigPath): SourceLocation | undefined;
  /** Position of the key that ends `path`, when the issue is about the key itself. */
  locateKey?(path: ConfigPath): SourceLocation | undefined;
}

/** Keys whose values hold no config objects of their own (free JSON, maps, recorded scripts). */
const OPAQUE_KEYS = new Set(['body', 'headers', 'cookies', 'queryParameters', 'query_parameters', 'project']);

/**
 * The rules a schema cannot express, checked on a config that passed the schema: unique procedure
 * and user names, procedure references that resolve, one spelling of query parameters per object,
 * regexes that compile, unique variable names, users that would send nothing. Every issue at once,
 * each located.
 *
 * @example
 * const issues = crossCheck(config, sourceMap);
 * // [{ severity: 'error', path: ['users', 0, 'procedure'], message: 'unknown procedure "lgoin" (did you mean "login"?)', ... }]
 */
export function crossCheck(config: AuthConfig, locator: Locator): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const report = (severity: ConfigIssue['severity'], path: ConfigPath, message: string, hint?: string, atKey = false) => {
    const location = atKey && locator.locateKey ? locator.locateKey(path) : locator.locate(path);
    issues.push({ severity, path, message, location, ...(hint ? { hint } : {}) });
  };
  const firstAt = (path: ConfigPath) => {
    const location = locator.locate(path);
    return `${formatPath(path)}${location ? ` (line ${location.line})` : ''}`;
  };

  const procedures = new Map<string, ConfigPath>();
  config.procedures.forEach((procedure, index) => {
    const path = ['procedures', index, 'name'];
    const first = procedures.get(procedure.name);
    if (first) report('error', path, `procedure "${procedure.name}" is already declared at ${firstAt(first)}`, 'Give each procedure a unique name.');
    else procedures.set(procedure.name, path);
  });

  const checkReference = (name: string | undefined, path: ConfigPath) => {
    if (name === undefined || procedures.has(name)) return;
    const declared = [...procedures.keys()];
    report('error', path, `unknown procedure "${name}"${didYouMean(name, declared)}`,
      declared.length ? `Declared procedures: ${declared.join(', ')}.` : 'No procedure is declared: add it under "procedures".');
  };

  const users = new Map<string, ConfigPath>();
  const declareUser = (name: string, path: ConfigPath) => {
    const first = users.get(name);
    if (first) report('error', path, `user "${name}" is already declared at ${firstAt(first)}`, 'User names must be unique across all presets and users.');
    else users.set(name, path);
  };
  config.presets.forEach((preset, p) => {
    preset.users.forEach((user, u) => declareUser(user.username, ['presets', p, 'users', u, 'username']));
  });
  config.users.forEach((user, index) => {
    declareUser(user.name, ['users', index, 'name']);
    checkReference(user.procedure ?? undefined, ['users', index, 'procedure']);
    checkReference(user.refresh?.procedure, ['users', index, 'refresh', 'procedure']);
    if (user.procedure == null && !hasContent(user.credentials)) {
      report('warning', ['users', index], `user "${user.name}" has neither a procedure nor credentials: it will send nothing`,
        'Add "procedure: <name>" or "credentials".');
    }
  });

  walkObjects(config, [], (object, path) => {
    if ('queryParameters' in object && 'query_parameters' in object) {
      report('error', [...path, 'query_parameters'], 'both "queryParameters" and "query_parameters" are given',
        'They are two spellings of the same key: keep one.', true);
    }
    if (Array.isArray(object.extractions)) {
      object.extractions.forEach((extraction, index) => {
        const regex = isObject(extraction) ? extraction.regex : undefined;
        if (typeof regex === 'string') checkRegex(regex, [...path, 'extractions', index, 'regex']);
        if (isObject(extraction) && extraction.key === '' && (extraction.location !== 'query' || typeof regex !== 'string')) {
          report('error', [...path, 'extractions', index, 'key'], 'an empty key means "the whole URL": it needs location query and a regex',
            'Name the header, cookie, body path or query parameter to read, or add a regex that picks the value out of the URL.');
        }
      });
    }
    if (Array.isArray(object.variables)) checkVariableNames(object.variables, [...path, 'variables']);
  });

  function checkRegex(source: string, path: ConfigPath): void {
    try {
      compileUserRegex(source);
    } catch (error) {
      const reason = (error as Error).message.replace(/^Invalid regular expression: /, '');
      const python = source.includes('(?P=');
      report('error', path, `invalid regular expression: ${reason}`,
        python ? 'Python back-references (?P=name) are written \\k<name> in JavaScript.' : 'Regexes use JavaScript syntax (Python named groups (?P<name>...) are accepted).');
    }
  }

  function checkVariableNames(list: unknown[], path: ConfigPath): void {
    const seen = new Map<string, number>();
    list.forEach((variable, index) => {
      const name = isObject(variable) ? variable.name : undefined;
      if (typeof name !== 'string') return;
      const first = seen.get(name);
      if (first === undefined) seen.set(name, index);
      else report('error', [...path, index, 'name'], `variable "${name}" is declared twice, first at ${firstAt([...path, first])}`, 'Keep one of them.');
    });
  }

  return issues;
}

function hasContent(credentials: object | undefined): boolean {
  return credentials !== undefined && Object.values(credentials).some((v) => v !== undefined && !(Array.isArray(v) && v.length === 0));
}

function walkObjects(value: unknown, path: ConfigPath, visit: (object: Record<string, unknown>, path: ConfigPath) => void): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => walkObjects(item, [...path, index], visit));
  } else if (isObject(value)) {
    visit(value, path);
    for (const [key, child] of Object.entries(value)) {
      if (!OPAQUE_KEYS.has(key)) walkObjects(child, [...path, key], visit);
    }
  }
}
