import type { core } from 'zod';
import type { ConfigIssue } from '../core/errors.js';
import { formatPath, type ConfigPath } from '../core/path.js';
import { isObject, objectKeys, schemaAt } from './schema-at.js';
import type { SourceMap } from './source-map.js';
import { didYouMean, suggest } from '../core/suggest.js';

type Issue = core.$ZodIssue;
type Path = Array<string | number>;

/** What the translation needs besides the issues: the data that failed and where its parts are. */
export interface IssueSource {
  /** The schema `data` was checked against (used to list the keys an object allows). */
  schema: core.$ZodType;
  data: unknown;
  map: SourceMap;
}

/** A translated issue, plus what is needed to drop the duplicates of a misspelt required key. */
interface Draft {
  issue: ConfigIssue;
  missingKey?: string;
  unknownKey?: string;
  suggestedKey?: string;
}

const DISCRIMINATOR_LABEL: Record<string, string> = { type: 'preset type', tech: 'operation tech' };

/**
 * Turns zod issues into compiler-style config issues a user understands: what is wrong, at which
 * path and position, and what to write instead (allowed keys and values, did-you-mean). Union
 * failures report the branch the value was evidently meant for, not "Invalid input".
 *
 * @example
 * const result = AuthConfig.safeParse(data);
 * if (!result.success) schemaIssues(result.error.issues, { schema: AuthConfig, data, map });
 * // [{ severity: 'error', path: ['presets', 0, 'users', 0, 'password'],
 * //    message: 'expected string, got number', location: { file, line: 5, column: 19 }, hint: ... }]
 */
export function schemaIssues(issues: readonly Issue[], source: IssueSource): ConfigIssue[] {
  const drafts = issues.flatMap((issue) => translate(issue, [], source));
  const misspelt = new Set(
    drafts.filter((d) => d.suggestedKey).map((d) => `${JSON.stringify(d.issue.path.slice(0, -1))}${d.suggestedKey}`),
  );
  const kept = drafts.filter((d) => !d.missingKey || !misspelt.has(`${JSON.stringify(d.issue.path)}${d.missingKey}`));
  for (const draft of kept) {
    const key = draft.unknownKey;
    if (key === undefined) continue;
    const owner = kept.find((d) => d.missingKey === key && isPrefix(d.issue.path, draft.issue.path));
    if (owner) draft.issue.hint = `"${key}" belongs to ${formatPath(owner.issue.path)}, not here.`;
  }
  return kept.map((d) => d.issue);
}

function translate(issue: Issue, prefix: Path, source: IssueSource): Draft[] {
  const path: Path = [...prefix, ...issue.path.map((k) => (typeof k === 'number' ? k : String(k)))];
  const value = valueAt(source.data, path);
  const at = (message: string, hint?: string, where: Path = path): Draft => ({
    issue: { severity: 'error', path: where, message, location: source.map.locate(where), ...(hint ? { hint } : {}) },
  });

  switch (issue.code) {
    case 'invalid_type': {
      const missing = missingKey(source.data, path);
      if (missing) return [missing];
      const expected = issue.expected === 'number' && isInteger(schemaAt(source.schema, path, source.data)) ? 'int' : issue.expected;
      return [at(`expected ${typeName(expected)}, got ${describe(value, expected === 'int')}`, typeHint([expected], value))];
    }
    case 'unrecognized_keys': {
      const allowed = objectKeys(schemaAt(source.schema, path, source.data));
      return issue.keys.map((key) => {
        const where = [...path, key];
        const suggestedKey = suggest(key, allowed);
        const vendorOnly = isVendorOnly(key);
        return {
          issue: {
            severity: 'error', path: where, location: source.map.locateKey(where),
            message: vendorOnly
              ? `"${key}" is a setting of the format's hosted service that playwright-multiauth does not support`
              : `unknown key "${key}"${suggestedKey === undefined ? '' : ` (did you mean "${suggestedKey}"?)`}`,
            hint: vendorOnly ? 'Remove it; docs/format.md lists what this package reads.' : allowed.length ? `Allowed keys here: ${allowed.join(', ')}.` : 'Remove it.',
          },
          unknownKey: key,
          ...(suggestedKey === undefined ? {} : { suggestedKey }),
        } satisfies Draft;
      });
    }
    case 'invalid_union':
      if (issue.discriminator !== undefined || (issue as { note?: string }).note === 'No matching discriminator') {
        return [discriminatorIssue(issue, path, source)];
      }
      return unionIssue(issue, path, value, source, at);
    case 'invalid_value':
      return [valueIssue(issue.values, value, at)];
    case 'too_small':
      return [at(sizeMessage('small', issue.origin, Number(issue.minimum), issue.inclusive !== false, value))];
    case 'too_big':
      return [at(sizeMessage('big', issue.origin, Number(issue.maximum), issue.inclusive !== false, value))];
    case 'invalid_key':
    case 'invalid_element':
      return issue.issues.flatMap((inner) => translate(inner, path, source));
    case 'invalid_format':
      return [at(`expected a valid ${issue.format}`)];
    default:
      return [at(issue.message)];
  }

  function missingKey(data: unknown, full: Path): Draft | undefined {
    const key = full[full.length - 1];
    const parentPath = full.slice(0, -1);
    const parent = valueAt(data, parentPath);
    if (typeof key !== 'string' || !isObject(parent) || Object.hasOwn(parent, key)) return undefined;
    const kind = issue.code === 'invalid_type' && issue.expected !== 'undefined' ? ` (${article(issue.expected)})` : '';
    return { ...at(`missing required key "${key}"`, `Add "${key}"${kind}.`, parentPath), missingKey: key };
  }
}

function discriminatorIssue(issue: Extract<Issue, { code: 'invalid_union' }>, path: Path, source: IssueSource): Draft {
  const discriminator = issue.discriminator ?? 'type';
  const keyPath = path[path.length - 1] === discriminator ? path : [...path, discriminator];
  const objectPath = keyPath.slice(0, -1);
  const object = valueAt(source.data, objectPath);
  const locate = (p: Path) => source.map.locate(p);
  if (!isObject(object)) {
    return { issue: { severity: 'error', path: objectPath, location: locate(objectPath), message: `expected object, got ${describe(object)}` } };
  }
  const options = ('options' in issue && issue.options ? issue.options : []).map(String);
  const label = DISCRIMINATOR_LABEL[discriminator] ?? discriminator;
  const hint = `Expected one of: ${options.join(', ')}.`;
  const tag = object[discriminator];
  if (tag === undefined) {
    return { issue: { severity: 'error', path: objectPath, location: locate(objectPath), message: `missing required key "${discriminator}"`, hint } };
  }
  if (typeof tag === 'string' && discriminator === 'type' && isVendorOnly(tag)) {
    return {
      issue: {
        severity: 'error', path: keyPath, location: locate(keyPath),
        message: `preset type "${tag}" is a capability of the format's hosted service that playwright-multiauth does not support`,
        hint: 'Record the sign-in instead: a webdriver preset (Selenium IDE steps), or oauth_authz_code_browser for an identity provider\'s pages.',
      },
    };
  }
  const message = typeof tag === 'string'
    ? `unknown ${label} "${tag}"${didYouMean(tag, options)}`
    : `expected ${label} as a string, got ${describe(tag)}`;
  return { issue: { severity: 'error', path: keyPath, location: locate(keyPath), message, hint } };
}

/**
 * Preset types and keys of the vendor's current format that need its hosted service (an AI browser
 * agent, custom integrations): refused by name, so that a pasted config says what is missing
 * instead of suggesting a look-alike.
 */
function isVendorOnly(name: string): boolean {
  return name === 'browser_agent' || /^custom_/.test(name);
}

/**
 * Picks the branch of a plain union that the value was meant for: one whose issues are not just
 * "wrong type at the top". When every branch failed on the type, says which types are accepted.
 */
function unionIssue(
  issue: Extract<Issue, { code: 'invalid_union' }>, path: Path, value: unknown, source: IssueSource,
  at: (message: string, hint?: string) => Draft,
): Draft[] {
  const branches = issue.errors.filter((branch) => branch.length > 0);
  const typeOnly = (branch: Issue[]) => branch.every((i) => i.code === 'invalid_type' && i.path.length === 0);
  const meant = branches.filter((branch) => !typeOnly(branch));
  if (meant.length === 0) {
    const expected = [...new Set(branches.flatMap((b) => b.map((i) => (i as { expected?: string }).expected ?? '')))].filter(Boolean);
    if (expected.length === 0) return [at(issue.message)];
    const names = [...new Set(expected.map(typeName))];
    return [at(`expected ${names.join(' or ')}, got ${describe(value)}`, typeHint(expected, value))];
  }
  const depth = (branch: Issue[]) => Math.max(...branch.map((i) => i.path.length));
  const best = meant.reduce((a, b) => (depth(b) > depth(a) || (depth(b) === depth(a) && b.length < a.length) ? b : a));
  return best.flatMap((inner) => translate(inner, path, source));
}

function valueIssue(values: readonly unknown[], value: unknown, at: (message: string, hint?: string) => Draft): Draft {
  const allowed = values.map(String);
  const list = allowed.join(', ');
  if (allowed.length === 1) return at(`expected "${list}", got ${typeof value === 'string' ? `"${value}"` : describe(value)}`);
  if (typeof value !== 'string') return at(`expected one of ${list}, got ${describe(value)}`);
  const caseOnly = allowed.find((a) => a.toLowerCase() === value.toLowerCase());
  if (caseOnly) return at(`"${value}" is not allowed: values are case-sensitive`, `Write "${caseOnly}".`);
  return at(`"${value}" is not one of ${list}${didYouMean(value, allowed)}`);
}

function sizeMessage(kind: 'small' | 'big', origin: string, limit: number, inclusive: boolean, value: unknown): string {
  if (origin === 'array' || origin === 'set') {
    if (kind === 'small' && limit === 1) return 'must not be empty (at least one item is required)';
    return `must have ${kind === 'small' ? 'at least' : 'at most'} ${limit} item${limit === 1 ? '' : 's'}`;
  }
  if (origin === 'string') {
    if (kind === 'small' && limit === 1) return 'must not be empty';
    return `must be ${kind === 'small' ? 'at least' : 'at most'} ${limit} characters long`;
  }
  const bound = kind === 'small'
    ? inclusive ? `at least ${limit}` : `greater than ${limit}`
    : inclusive ? `at most ${limit}` : `less than ${limit}`;
  return `must be ${bound}, got ${typeof value === 'number' ? value : describe(value)}`;
}

function isInteger(schema: core.$ZodType | undefined): boolean {
  return (schema?._zod.def as { format?: string } | undefined)?.format === 'safeint';
}

function typeName(expected: string): string {
  switch (expected) {
    case 'array': return 'list';
    case 'record': return 'object';
    case 'int': return 'whole number';
    default: return expected;
  }
}

/** How a value reads in a message; never its text (it may be a secret), except whole-number mismatches. */
function describe(value: unknown, showNumber = false): string {
  if (value === null) return 'null (no value)';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'number' && showNumber) return String(value);
  return typeof value;
}

function typeHint(expected: string[], value: unknown): string | undefined {
  const wants = new Set(expected);
  if (value === null) return 'The key has no value: give it one, or remove the key.';
  if (wants.has('string') && (typeof value === 'number' || typeof value === 'boolean')) {
    return 'Put the value in quotes to make it a string.';
  }
  if ((wants.has('number') || wants.has('int')) && typeof value === 'string') return 'Write the number without quotes.';
  if (wants.has('array') && (wants.has('record') || wants.has('object'))) {
    return 'Write a map ("name: value" per line) or a list of { name, value }.';
  }
  if (wants.has('array')) return 'Write a list: one item per line, each starting with "- ".';
  if (wants.has('record') && Array.isArray(value)) return 'Write a map, one "name: value" per line, not a list.';
  if (wants.has('object') && Array.isArray(value)) return 'Write an object ("key: value" lines), not a list.';
  return undefined;
}

/** A type as a user reads it after "Add ...": `a string`, `a list`. */
function article(expected: string): string {
  const name = typeName(expected);
  if (expected === 'boolean') return 'true or false';
  return `${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name}`;
}

function isPrefix(prefix: ConfigPath, path: ConfigPath): boolean {
  return prefix.length < path.length && prefix.every((key, i) => key === path[i]);
}

/**
 * The value at `path` of parsed data, or `undefined`.
 *
 * @example
 * valueAt({ users: [{ name: 'a' }] }, ['users', 0, 'name']); // 'a'
 */
export function valueAt(data: unknown, path: ConfigPath): unknown {
  let current = data;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}
