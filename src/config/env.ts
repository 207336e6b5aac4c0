import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type Node, type ParseOptions, type Scalar, type ScalarTag } from 'yaml';
import { MultiAuthError, type ConfigIssue } from '../core/errors.js';
import { formatPath, type ConfigPath } from '../core/path.js';
import { keyOf, type SourceMap } from './source-map.js';
import { suggest } from '../core/suggest.js';

import type { Env } from '../core/dotenv.js';

export { environmentFor, type Env } from '../core/dotenv.js';

/** What {@link substituteEnv} did to a document. */
export interface EnvSubstitution {
  /** Missing or malformed `${...}` references, each located at the reference. */
  issues: ConfigIssue[];
  /** {@link formatPath} of every value left unsubstituted because of an issue. */
  failedPaths: Set<string>;
  /** Each variable used and the value it had, in order of first use. */
  used: Map<string, string>;
  /** Where each substituted reference sits in the source text, for {@link substitutedText}. */
  edits: TextEdit[];
}

/** A reference in the source text and the value that replaced it. */
export interface TextEdit {
  offset: number;
  length: number;
  text: string;
}

const REFERENCE = /\$\$\{|\$\{([^}]*)\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A `${` with no `}` after it: kept as text it would hide a typo. */
const UNTERMINATED = /\$\{[^}]*$/;

/**
 * Replaces `${NAME}` inside the string scalars (keys and values) of a parsed document, in place.
 * Working on scalars rather than on the raw text means a value can never break the YAML structure
 * and every position stays right. `$${` is a literal `${`. A plain scalar that is exactly `${NAME}`
 * takes the YAML type of the value (`timeout: ${T}` with `T=30` is a number; an empty value stays
 * an empty string); quoted scalars stay strings. In Selenium IDE commands, `${name}` is also
 * Selenium's own variable syntax: a name the config declares, stores or extracts (and `KEY_*`,
 * `nbsp`) keeps that meaning (a warning says so when the environment has it too); any other is
 * the environment's, as everywhere else.
 *
 * @example
 * const result = substituteEnv(doc, { TOKEN: 'abc' }, sourceMap, 'set it in .env');
 * result.issues; // one located issue per missing variable
 */
export function substituteEnv(doc: Document, env: Env, map: SourceMap, missingHint: string, missingAs?: string): EnvSubstitution {
  const result: EnvSubstitution = { issues: [], failedPaths: new Set(), used: new Map(), edits: [] };
  const text = map.source;

  let seleniumNames: ReadonlySet<string> | undefined;
  const substituteScalar = (node: Scalar, path: ConfigPath, isKey: boolean, selenium = false): void => {
    if (typeof node.value !== 'string' || !node.value.includes('${')) return;
    const value = node.value;
    const source = node.range ? text.slice(node.range[0], node.range[1]) : '';
    let cursor = 0;
    let failed = false;
    const edits: TextEdit[] = [];
    // In a browser command, a `${` may open a JavaScript template literal of a script.
    const open = selenium ? undefined : UNTERMINATED.exec(value.replace(/\$\$\{/g, '  '));
    if (open) {
      const at = source.indexOf('${', Math.max(0, source.length - (value.length - open.index) - 1));
      result.issues.push({
        severity: 'error', path, location: map.at((node.range?.[0] ?? 0) + Math.max(at, 0)),
        message: 'a "${" is not closed by "}"',
        hint: 'Close the reference (${NAME}), or write $${ for a literal ${.',
      });
      result.failedPaths.add(formatPath(path));
      return;
    }
    const replaced = value.replace(REFERENCE, (match, name: string | undefined) => {
      if (name === undefined) return '${';
      const found = source.indexOf(match, cursor);
      if (found >= 0) cursor = found + match.length;
      const offset = (node.range?.[0] ?? 0) + Math.max(found, 0);
      if (selenium) {
        // Selenium IDE's own variables (and keys) keep their meaning; only other names are the environment's.
        seleniumNames ??= seleniumVariableNames(doc);
        const own = Object.hasOwn(env, name) && env[name] !== undefined;
        if (!NAME.test(name) || /^KEY_[A-Z0-9_]+$/.test(name) || name === 'nbsp') return match;
        if (seleniumNames.has(name)) {
          if (own) {
            result.issues.push({
              severity: 'warning', path, location: map.at(offset),
              message: `\${${name}} is read as the Selenium variable ${name} (the config declares, stores or extracts it), not as the environment variable`,
              hint: `Rename one of them; write {{${name}}} for the variable, or rename the environment variable to use it here.`,
            });
          }
          return match;
        }
      }
      if (!NAME.test(name)) {
        failed = true;
        result.issues.push({
          severity: 'error', path, location: map.at(offset),
          message: `"${match}" is not an environment variable reference`,
          hint: 'A name is letters, digits and _ (defaults such as ${NAME:-x} are not supported); write $${ for a literal ${.',
        });
        return match;
      }
      // Own properties only: `${constructor}` is an unset variable, not Object's constructor.
      const substitute = Object.hasOwn(env, name) ? env[name] : undefined;
      if (substitute === undefined) {
        // A typo of a name that is set: say which, and do not tell the user to set the typo.
        const meant = suggest(name, definedNames(env));
        result.issues.push({
          severity: 'error', path, location: map.at(offset),
          message: `environment variable ${name} is not set${meant === undefined ? '' : ` (did you mean "${meant}"?)`}`,
          hint: meant === undefined ? missingHint.replaceAll('{name}', name) : `Write \${${meant}}, which is set, if that is the variable meant.`,
        });
        // Deferred (`missingAs`): the value is usable as text, and only the users that need it fail.
        if (missingAs !== undefined) return missingAs;
        failed = true;
        return match;
      }
      if (!result.used.has(name)) result.used.set(name, substitute);
      edits.push({ offset: found >= 0 ? offset : -1, length: match.length, text: substitute });
      return substitute;
    });
    if (failed) {
      result.failedPaths.add(formatPath(path));
      return;
    }
    result.edits.push(...edits);
    const whole = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.test(value);
    node.value = whole && !isKey && node.type === 'PLAIN' ? typedPlain(doc, replaced) : replaced;
  };

  const walk = (node: unknown, path: Array<string | number>): void => {
    if (isAlias(node)) return;
    if (isScalar(node)) return substituteScalar(node, path, false, inSelenium(path));
    if (isSeq(node)) {
      node.items.forEach((item, index) => walk(item, [...path, index]));
      return;
    }
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        if (isScalar(pair.key)) substituteScalar(pair.key, [...path, keyOf(pair.key)], true);
        const childPath = [...path, keyOf(pair.key)];
        walk(pair.value, childPath);
      }
    }
  };

  walk(doc.contents as Node | null, []);
  return result;
}

/** The names `env` sets, for did-you-mean; a process environment holds a few hundred at most. */
function definedNames(env: Env): string[] {
  return Object.keys(env).filter((name) => env[name] !== undefined && NAME.test(name));
}

/** Below `...project.tests[i].commands`: Selenium IDE's own `${var}` syntax lives there. */
function inSelenium(path: ConfigPath): boolean {
  for (let i = 3; i < path.length; i++) {
    if (path[i] === 'commands' && typeof path[i - 1] === 'number' && path[i - 2] === 'tests' && path[i - 3] === 'project') return true;
  }
  return false;
}

/** Commands whose `value` (else `target`) names the variable they set, besides every `store*`. */
const STORING = new Set(['executescript', 'executeasyncscript']);

/**
 * Every name the config gives a Selenium variable: declared variables (lists and maps), extraction
 * names (a later browser step sees them), what `store*` and `executeScript` commands store, window
 * handle names, and the names every sign-in has (`username`, `password`, `totp_secret`, the
 * per-sign-in values, `passkey_id`). Read from the document before substitution, without recursion.
 */
function seleniumVariableNames(doc: Document): ReadonlySet<string> {
  const names = new Set(['username', 'password', 'totp_secret', 'pkce_verifier', 'pkce_challenge', 'state', 'nonce', 'authorization_code', 'passkey_id']);
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch {
    return names;
  }
  const stack: unknown[] = [data];
  while (stack.length) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    const object = value as Record<string, unknown>;
    if (Array.isArray(object.variables)) {
      for (const item of object.variables) if (item && typeof item === 'object' && typeof (item as { name?: unknown }).name === 'string') names.add((item as { name: string }).name);
    } else if (object.variables && typeof object.variables === 'object') {
      for (const name of Object.keys(object.variables)) names.add(name);
    }
    if (Array.isArray(object.extractions)) {
      for (const item of object.extractions) if (item && typeof item === 'object' && typeof (item as { name?: unknown }).name === 'string') names.add((item as { name: string }).name);
    }
    if (typeof object.command === 'string') {
      const command = object.command.replace(/\s+/g, '').toLowerCase();
      const stored = typeof object.value === 'string' && object.value.trim() !== '' ? object.value : object.target;
      if ((command.startsWith('store') || STORING.has(command)) && typeof stored === 'string') names.add(stored.trim());
      if (typeof object.windowHandleName === 'string') names.add(object.windowHandleName);
    }
    for (const child of Object.values(object)) stack.push(child);
  }
  return names;
}

/** Resolves text as the document's schema would resolve a plain scalar (number, boolean, null, string). */
function typedPlain(doc: Document, text: string): unknown {
  if (text === '') return text;
  for (const tag of doc.schema.tags as Array<Partial<ScalarTag>>) {
    if (!tag.default || !tag.test?.test(text) || !tag.resolve) continue;
    let failed = false;
    const value = tag.resolve(text, () => { failed = true; }, doc.options as ParseOptions);
    return failed ? text : isScalar(value) ? value.value : value;
  }
  return text;
}

/**
 * The source text with every substituted `${NAME}` replaced by its value: what the file would say
 * with the environment written into it (hashed as the session cache key; not valid YAML in
 * general). A reference that could not be found in the source text is appended instead.
 *
 * @example
 * substitutedText('a: ${X}', [{ offset: 3, length: 4, text: '1' }]); // 'a: 1'
 */
export function substitutedText(text: string, edits: readonly TextEdit[]): string {
  const placed = edits.filter((e) => e.offset >= 0).sort((a, b) => a.offset - b.offset);
  let out = '';
  let cursor = 0;
  for (const edit of placed) {
    out += text.slice(cursor, edit.offset) + edit.text;
    cursor = edit.offset + edit.length;
  }
  out += text.slice(cursor);
  for (const edit of edits) if (edit.offset < 0) out += `\0${edit.text}`;
  return out;
}
