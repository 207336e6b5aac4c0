import { compileUserRegex } from '../core/regex.js';
import type { ConfigIssue, SourceLocation } from '../core/errors.js';
import { formatPath, type ConfigPath } from '../core/path.js';
import type { AuthConfig } from './schema/index.js';
import { isObject } from './schema-at.js';
import { didYouMean } from '../core/suggest.js';
import { checkAccess } from './access-check.js';

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

  // One answer per unknown name: 3,000 users with the same typo must not cost 3,000 searches.
  const unknownProcedure = new Map<string, { message: string; hint: string }>();
  const checkReference = (name: string | undefined, path: ConfigPath) => {
    if (name === undefined || procedures.has(name)) return;
    let said = unknownProcedure.get(name);
    if (!said) {
      const declared = [...procedures.keys()];
      const listed = declared.length <= MAX_LISTED ? declared.join(', ') : `${declared.slice(0, MAX_LISTED).join(', ')} and ${declared.length - MAX_LISTED} more`;
      said = {
        message: `unknown procedure "${name}"${didYouMean(name, declared)}`,
        hint: declared.length ? `Declared procedures: ${listed}.` : 'No procedure is declared: add it under "procedures".',
      };
      unknownProcedure.set(name, said);
    }
    report('error', path, said.message, said.hint);
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
        if (isObject(extraction)) checkName(extraction.name, [...path, 'extractions', index, 'name'], 'an extraction');
        const regex = isObject(extraction) ? extraction.regex : undefined;
        if (typeof regex === 'string') checkRegex(regex, [...path, 'extractions', index, 'regex']);
        if (isObject(extraction) && object.tech !== 'email' && extraction.key === undefined && extraction.location !== 'body') {
          report('error', [...path, 'extractions', index], `an extraction from ${String(extraction.location)} needs a "key"`,
            'Name the header, cookie, query parameter or storage item to read (key: X-Token).');
        } else if (isObject(extraction) && extraction.key === '' && extraction.location !== 'body' && (extraction.location !== 'query' || typeof regex !== 'string')) {
          report('error', [...path, 'extractions', index, 'key'], 'an empty key means "the whole URL" (location query, with a regex) or "the whole body" (location body)',
            'Name the header, cookie, body path or query parameter to read, or add a regex that picks the value out of the URL.');
        }
        if (isObject(extraction)) checkStorageOrigin(extraction, [...path, 'extractions', index], false);
        if (isObject(extraction) && extraction.location === 'link' && object.tech !== 'email') {
          report('error', [...path, 'extractions', index, 'location'], 'location link reads a link of a mail: only a tech: email operation has one',
            'Use location query or body here, or read the link in the tech: email step that waits for the mail.');
        }
      });
    }
    if (object.tech === 'email') checkEmailOperation(object, path);
    if ((object.type === 'email_code' || object.type === 'email_link') && config.mail === undefined) {
      report('error', [...path, 'type'], `an ${object.type} preset reads mail, and the config has no top-level "mail" saying where`,
        'Add mail: { smtp: { port: 2525 } } (a sink multiauth runs; point the application\'s SMTP at it), or mail: { mailpit: URL } or { maildev: URL }.');
    }
    if (object.type === 'email_code' && typeof object.code === 'string') checkRegex(object.code, [...path, 'code']);
    if (object.type === 'email_link' && typeof object.link === 'string' && !object.link.startsWith('/') && !/^https?:\/\//i.test(object.link)) {
      report('error', [...path, 'link'], 'link is a glob of the link\'s path (/verify/**) or of its whole URL (https://app.example.test/verify/**)',
        'Start the glob with "/" to match the link\'s path, or with http(s):// to match the whole link.');
    }
    if ((object.type === 'email_code' || object.type === 'email_link') && isObject(object.mail)) {
      for (const key of ['subject', 'from']) if (typeof object.mail[key] === 'string') checkRegex(object.mail[key], [...path, 'mail', key]);
    }
    if (isObject(object.first_request) && object.first_request.accept_status !== undefined) {
      report('error', [...path, 'first_request', 'accept_status'], 'accept_status applies to tech: http requests; a digest\'s first request is answered 401 by design',
        'Remove it.', true);
    }
    if (path[path.length - 1] === 'credentials' && Array.isArray(object.cookies)) {
      object.cookies.forEach((cookie, index) => {
        if (!isObject(cookie)) return;
        const given = ['value', 'values'].filter((key) => cookie[key] !== undefined);
        if (given.length !== 1) {
          report('error', [...path, 'cookies', index], given.length ? 'a cookie has "value" and "values": keep one' : 'a cookie needs "value" (or "values")',
            'Write value: the cookie\'s value (values: a list sends it several times).');
        }
      });
    }
    if (Array.isArray(object.variables)) checkVariableNames(object.variables, [...path, 'variables']);
    else if (isObject(object.variables)) for (const name of Object.keys(object.variables)) checkName(name, [...path, 'variables', name], 'a variable');
    if (Array.isArray(object.injections)) {
      object.injections.forEach((injection, index) => {
        if (isObject(injection)) checkStorageOrigin(injection, [...path, 'injections', index], true);
        if (!isObject(injection) || typeof injection.key !== 'string') return;
        const reserved = injection.key.split('.').find((segment) => RESERVED_NAMES.has(segment));
        if (reserved !== undefined && injection.location === 'body') {
          report('error', [...path, 'injections', index, 'key'], `"${reserved}" cannot be a segment of a body path`,
            'Rename the field: __proto__, constructor and prototype reach into JavaScript objects themselves.');
        }
      });
    }
  });

  /**
   * `origin` belongs to the browser storage locations, and an injection there needs one: the
   * pages of which origin get the value. It must be an http(s) URL (its path is ignored).
   */
  function checkStorageOrigin(item: Record<string, unknown>, path: ConfigPath, required: boolean): void {
    const storage = item.location === 'browser_local_storage' || item.location === 'browser_session_storage';
    const { origin } = item;
    if (!storage) {
      if (origin !== undefined) {
        report('error', [...path, 'origin'], `"origin" applies to the browser storage locations, not to ${String(item.location)}`,
          'Remove it, or use location browser_local_storage or browser_session_storage.');
      }
      return;
    }
    if (origin === undefined) {
      if (required) {
        report('error', [...path, 'location'], `an injection into ${String(item.location)} needs "origin": the site whose pages get the value`,
          'Add origin: https://app.example.test (the origin the app runs on).');
      }
      return;
    }
    if (typeof origin === 'string' && !/^https?:\/\/[^/?#\s]+(?:\/[^\s]*)?$/i.test(origin)) {
      report('error', [...path, 'origin'], 'origin must be an http(s) URL such as https://app.example.test',
        'Write the scheme, host and port the app runs on.');
    }
  }

  /**
   * A `tech: email` step needs the top-level `mail` (where mail is read), regexes that compile,
   * and extractions a mail has: its body, a header, a link, a link's query parameter.
   */
  function checkEmailOperation(operation: Record<string, unknown>, path: ConfigPath): void {
    if (config.mail === undefined) {
      report('error', [...path, 'tech'], 'a tech: email step reads mail, and the config has no top-level "mail" saying where',
        'Add mail: { smtp: { port: 2525 } } (a sink multiauth runs; point the application\'s SMTP at it), or mail: { mailpit: URL } or { maildev: URL }.');
    }
    const parameters = isObject(operation.parameters) ? operation.parameters : {};
    for (const key of ['subject', 'from']) {
      if (typeof parameters[key] === 'string') checkRegex(parameters[key], [...path, 'parameters', key]);
    }
    if (!Array.isArray(operation.extractions)) return;
    operation.extractions.forEach((extraction, index) => {
      if (!isObject(extraction)) return;
      const at: ConfigPath = [...path, 'extractions', index];
      const { location, key } = extraction;
      if (location !== 'body' && location !== 'header' && location !== 'link' && location !== 'query') {
        report('error', [...at, 'location'], `a mail has no ${String(location)}: an email step reads body, header, link or query`,
          'Use body (the mail\'s text), header (key: Subject), link (key: a glob such as /verify/**) or query (a parameter of a link).');
      } else if ((location === 'header' || location === 'query') && (key === undefined || key === '')) {
        report('error', at, `an extraction from a mail's ${location} needs a "key"`,
          location === 'header' ? 'Name the header (key: Subject).' : 'Name the parameter of the mail\'s link (key: token).');
      } else if (location === 'link' && typeof key === 'string' && key !== '' && !key.startsWith('/') && !/^https?:\/\//i.test(key)) {
        report('error', [...at, 'key'], 'a link\'s key is a glob of its path (/verify/**) or of its whole URL (https://app.example.test/verify/**)',
          'Start the glob with "/" to match the link\'s path, or with http(s):// to match the whole link; leave key out for the mail\'s first link.');
      } else if (location === 'body' && typeof key === 'string' && key !== '') {
        report('error', [...at, 'key'], 'a mail\'s body has no keys: it is the mail\'s text',
          'Leave key out, and pick the value with a regex (regex: "code: (\\d{6})").');
      }
    });
  }

  /** Names that would read or write an object's prototype where variables are kept by name. */
  function checkName(name: unknown, path: ConfigPath, what: string): void {
    if (typeof name === 'string' && RESERVED_NAMES.has(name)) {
      report('error', path, `"${name}" cannot be the name of ${what}`, 'Choose another name: __proto__, constructor and prototype are reserved.');
    }
  }

  function checkRegex(source: string, path: ConfigPath): void {
    try {
      compileUserRegex(source);
    } catch (error) {
      report('error', path, `invalid regular expression: ${(error as Error).message}`,
        'Regexes use RE2 syntax: JavaScript\'s and Python\'s common ground (named groups (?P<name>...) or (?<name>...), inline flags (?i)), matched in linear time; no look-around, no back-references.');
    }
  }

  function checkVariableNames(list: unknown[], path: ConfigPath): void {
    const seen = new Map<string, number>();
    list.forEach((variable, index) => {
      const name = isObject(variable) ? variable.name : undefined;
      if (typeof name !== 'string') return;
      checkName(name, [...path, index, 'name'], 'a variable');
      const first = seen.get(name);
      if (first === undefined) seen.set(name, index);
      else report('error', [...path, index, 'name'], `variable "${name}" is declared twice, first at ${firstAt([...path, first])}`, 'Keep one of them.');
    });
  }

  checkAccess(config, (path, message, hint, atKey) => report('error', path, message, hint, atKey));

  return issues;
}

/** Names listed in a hint: an error must stay readable (and small) whatever the config's size. */
const MAX_LISTED = 8;

const RESERVED_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

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
