import { isAlias, isMap, isSeq, type Alias, type Document, type YAMLError } from 'yaml';
import type { ConfigIssue } from '../core/errors.js';
import type { ConfigPath } from '../core/path.js';
import type { SourceMap } from './source-map.js';

const HINTS: Partial<Record<YAMLError['code'], string>> = {
  DUPLICATE_KEY: 'A key may appear once per object: merge the two or remove one.',
  TAB_AS_INDENT: 'Indent with spaces, not tabs.',
  BAD_INDENT: 'Check the indentation, and that every bracket and quote opened before is closed.',
  MISSING_CHAR: 'Check the indentation, and that every bracket and quote opened before is closed.',
  UNEXPECTED_TOKEN: 'Check the indentation, and that every bracket and quote opened before is closed.',
  BLOCK_AS_IMPLICIT_KEY: 'Check for a missing ":" or a wrong indentation on this line or the one before.',
  MULTILINE_IMPLICIT_KEY: 'A key must fit on one line: check for a missing ":" or quote on the line before.',
  MULTIPLE_DOCS: 'Keep one document per file: remove the second "---".',
  RESOURCE_EXHAUSTION: 'Nest less: the format needs about a dozen levels.',
  IMPOSSIBLE: 'Rename the key: __proto__ would reach into the objects it is read into.',
  BAD_DQ_ESCAPE: 'In double quotes a backslash starts an escape: write \\\\ for a backslash, or use single quotes.',
};

const UNQUOTED_REFERENCE = /[[{](?:.*[,:])?\s*(\$\{[^}\s]*\}?)/;

/**
 * `key: value` where the plain (unquoted) value holds ": " itself: a pasted curl command or header
 * line (`-H 'Content-Type: application/json'`), which YAML reads as a second key on the line.
 */
const COLON_IN_PLAIN_VALUE = /^\s*(?:-\s+)?([A-Za-z0-9_.-]{1,100}):[ \t]+(?!['"|>{[&*!#])[^\n]{0,10000}?:[ \t]/;

const MESSAGES: Partial<Record<YAMLError['code'], string>> = {
  MULTIPLE_DOCS: 'the file holds more than one YAML document',
};

/**
 * The problems that keep a file from being read at all: YAML (or JSON) syntax errors, duplicate
 * keys and aliases without an anchor, each located; plus the parser's warnings. For `.json` files
 * the message of `JSON.parse` is preferred, as it speaks JSON rather than YAML.
 *
 * @example
 * const issues = syntaxIssues(doc, sourceMap, false);
 * // [{ severity: 'error', path: ['users'], message: 'duplicate key "users"', location: ... }]
 */
export function syntaxIssues(doc: Document, map: SourceMap, json: boolean): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const jsonIssue = json && doc.errors.length > 0 ? jsonSyntaxIssue(map) : undefined;
  if (jsonIssue) issues.push(jsonIssue);
  else {
    const seenLines = new Set<number>();
    for (const error of [...doc.errors].sort((a, b) => a.pos[0] - b.pos[0])) {
      const start = error.pos[0];
      let location = map.at(start);
      // Later errors on the same line are the parser tripping over the first one.
      if (seenLines.has(location.line)) continue;
      seenLines.add(location.line);
      const duplicate = error.code === 'DUPLICATE_KEY';
      const path = duplicate ? map.pathAt(start) : [];
      const lineStart = map.source.lastIndexOf('\n', start - 1) + 1;
      const found = UNQUOTED_REFERENCE.exec(lineAt(map.source, start));
      const reference = found?.[1];
      if (found && reference) location = map.at(lineStart + found.index + found[0].length - reference.length);
      const colonKey = error.code === 'BLOCK_AS_IMPLICIT_KEY' ? COLON_IN_PLAIN_VALUE.exec(lineAt(map.source, start))?.[1] : undefined;
      const message = duplicate ? duplicateKeyMessage(map, path, start)
        : reference ? `${reference} inside { } or [ ] must be quoted`
        : colonKey ? `the value of "${colonKey}" holds ": " and is not quoted: YAML reads it as another key`
        : MESSAGES[error.code] ?? withoutSource(lowerFirst(error.message));
      const hint = reference ? `Write "${reference}" (in quotes): inside { } and [ ], a bare { or } is YAML syntax.`
        : colonKey ? `Write "${colonKey}: |-" (or ">-") and the value on the lines below, indented; or quote the whole value. A pasted curl command is easiest as such a block.`
        : HINTS[error.code];
      issues.push({ severity: 'error', path, message, location, ...(hint ? { hint } : {}) });
    }
  }
  if (doc.errors.length === 0) {
    forEachUnresolvedAlias(doc.contents, (node) => {
      const start = node.range?.[0] ?? 0;
      issues.push({
        severity: 'error', path: map.pathAt(start), location: map.at(start),
        message: `alias *${node.source} has no anchor`,
        hint: `Define &${node.source} on a value before this alias.`,
      });
    });
  }
  for (const warning of doc.warnings) {
    issues.push({ severity: 'warning', path: map.pathAt(warning.pos[0]), message: lowerFirst(warning.message), location: map.at(warning.pos[0]) });
  }
  return issues;
}

/** `JSON.parse`'s own message, located, when the text is not valid JSON. */
function jsonSyntaxIssue(map: SourceMap): ConfigIssue | undefined {
  try {
    JSON.parse(map.source);
    return undefined;
  } catch (error) {
    const text = (error as Error).message;
    const position = /at position (\d+)/.exec(text);
    // Messages without a position quote the source instead (maybe a secret): use YAML's then.
    if (!position) return undefined;
    const offset = Number(position[1]);
    const message = text.replace(/ in JSON at position \d+.*$/s, '').replace(/^JSON\.parse: /, '');
    return {
      severity: 'error', path: [], location: map.at(offset),
      message: `invalid JSON: ${lowerFirst(message)}`,
      hint: 'Check for a missing or extra comma, bracket or quote here or just before.',
    };
  }
}

/**
 * Aliases whose anchor is not defined before them, in document order. A plain walk that remembers
 * the anchors seen: `Alias.resolve` searches the whole document each time, far too slow for
 * configs of thousands of users.
 */
function forEachUnresolvedAlias(root: unknown, found: (alias: Alias) => void): void {
  const anchors = new Set<string>();
  const walk = (node: unknown): void => {
    if (isAlias(node)) {
      if (!anchors.has(node.source)) found(node);
      return;
    }
    const anchor = (node as { anchor?: string } | null | undefined)?.anchor;
    if (anchor) anchors.add(anchor);
    if (isMap(node)) {
      for (const pair of node.items) {
        walk(pair.key);
        walk(pair.value);
      }
    } else if (isSeq(node)) for (const item of node.items) walk(item);
  };
  walk(root);
}

function duplicateKeyMessage(map: SourceMap, path: ConfigPath, offset: number): string {
  const key = path[path.length - 1] ?? map.source.slice(offset, offset + 1);
  const first = map.locateKeys(path)[0];
  const line = map.at(offset).line;
  return `duplicate key ${JSON.stringify(String(key))}${first && first.line !== line ? ` (first at line ${first.line})` : ''}`;
}

function lineAt(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const end = text.indexOf('\n', offset);
  return text.slice(start, end < 0 ? undefined : end);
}

/** Drops the source text some parser messages quote (`...token in YAML stream: "hunter2"`): it may be a secret. */
function withoutSource(message: string): string {
  return message.replace(/:\s*".*"$/s, '');
}

function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}
