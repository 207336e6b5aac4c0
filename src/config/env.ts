import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type Node, type ParseOptions, type Scalar, type ScalarTag } from 'yaml';
import { MultiAuthError, type ConfigIssue } from '../core/errors.js';
import { formatPath, type ConfigPath } from '../core/path.js';
import { keyOf, type SourceMap } from './source-map.js';

/** Environment variables as `process.env` holds them. */
export type Env = Record<string, string | undefined>;

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
 * The environment a config sees: the real environment, plus the `.env` file in `dir` for the names
 * the real environment does not set. Nothing is written into `process.env`.
 *
 * @example
 * const env = environmentFor('/repo', process.env); // .env of /repo under process.env
 */
export function environmentFor(dir: string | undefined, real: Env): Env {
  if (dir === undefined) return real;
  const file = join(dir, '.env');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return real;
    throw new MultiAuthError('CONFIG_NOT_FOUND', `cannot read ${file}: ${(error as Error).message}`, {
      hint: 'Make the .env file beside the config readable, or remove it.',
    });
  }
  const merged: Env = { ...parseDotenv(text) };
  for (const [name, value] of Object.entries(real)) if (value !== undefined) merged[name] = value;
  return merged;
}

/**
 * Replaces `${NAME}` inside the string scalars (keys and values) of a parsed document, in place.
 * Working on scalars rather than on the raw text means a value can never break the YAML structure
 * and every position stays right. `$${` is a literal `${`. A plain scalar that is exactly `${NAME}`
 * takes the YAML type of the value (`timeout: ${T}` with `T=30` is a number; an empty value stays
 * an empty string); quoted scalars stay strings. Selenium IDE commands are left alone: there
 * `${name}` is Selenium's own variable syntax.
 *
 * @example
 * const result = substituteEnv(doc, { TOKEN: 'abc' }, sourceMap, 'set it in .env');
 * result.issues; // one located issue per missing variable
 */
export function substituteEnv(doc: Document, env: Env, map: SourceMap, missingHint: string, missingAs?: string): EnvSubstitution {
  const result: EnvSubstitution = { issues: [], failedPaths: new Set(), used: new Map(), edits: [] };
  const text = map.source;

  const substituteScalar = (node: Scalar, path: ConfigPath, isKey: boolean): void => {
    if (typeof node.value !== 'string' || !node.value.includes('${')) return;
    const value = node.value;
    const source = node.range ? text.slice(node.range[0], node.range[1]) : '';
    let cursor = 0;
    let failed = false;
    const edits: TextEdit[] = [];
    const open = UNTERMINATED.exec(value.replace(/\$\$\{/g, '  '));
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
        result.issues.push({
          severity: 'error', path, location: map.at(offset),
          message: `environment variable ${name} is not set`,
          hint: missingHint.replaceAll('{name}', name),
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
    if (isScalar(node)) return substituteScalar(node, path, false);
    if (isSeq(node)) {
      node.items.forEach((item, index) => walk(item, [...path, index]));
      return;
    }
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        if (isScalar(pair.key)) substituteScalar(pair.key, [...path, keyOf(pair.key)], true);
        const childPath = [...path, keyOf(pair.key)];
        if (!isSeleniumCommands(childPath)) walk(pair.value, childPath);
      }
    }
  };

  walk(doc.contents as Node | null, []);
  return result;
}

/** `...project.tests[i].commands`: Selenium IDE's own `${var}` syntax lives below it. */
function isSeleniumCommands(path: ConfigPath): boolean {
  const n = path.length;
  return n >= 4 && path[n - 1] === 'commands' && typeof path[n - 2] === 'number' && path[n - 3] === 'tests' && path[n - 4] === 'project';
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
