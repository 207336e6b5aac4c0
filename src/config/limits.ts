import { isMap, isScalar, isSeq, YAMLParseError, type Document } from 'yaml';
import { MultiAuthError } from '../core/errors.js';
import { NotRegularFileError, readRegularFile } from '../core/regular-file.js';

/**
 * Bounds on a config: it is untrusted input (a pasted file, a generated one), and every later step
 * (schema, compile, explain, sign-in) is linear in its expanded size. docs/security.md lists them.
 */
export const CONFIG_LIMITS = Object.freeze({
  /** Bytes of the file. */
  fileBytes: 8 * 1024 * 1024,
  /** yaml's alias budget (its own measure: nodes of an aliased value × times aliased). */
  aliasCount: 100,
  /** Values (objects, lists, scalars) of the config once aliases are expanded. */
  expandedNodes: 1_000_000,
  /** Characters of text in the config once aliases are expanded. */
  expandedChars: 32 * 1024 * 1024,
  /** Nesting of objects and lists (the format needs about 12). */
  depth: 64,
});

/**
 * Bounds on what `{{ }}` templates make at run time (`TEMPLATE_LIMITS.resultChars`), listed here
 * with the config's own; defined beside the template language in core, which the runtime loads
 * without the config loader.
 */
export { TEMPLATE_LIMITS } from '../core/template-expr.js';

/** How a config is named when the caller does not say: every way there is. */
const DEFAULT_CHOOSE_OTHER = '-c FILE, the authConfig option or MULTIAUTH_CONFIG';

/**
 * Reads a config file: a regular file (not a device, FIFO or directory) of at most
 * `CONFIG_LIMITS.fileBytes`, checked before it is opened (a FIFO would block, `/dev/zero` never
 * ends) and again once open, and read with that bound.
 *
 * `chooseOther` says how the caller's user names another file (the CLI: `-c FILE`).
 *
 * @throws MultiAuthError `CONFIG_NOT_FOUND` when it cannot be opened; `CONFIG_LIMIT` when it is not
 *   a regular file or is too large.
 * @example
 * const text = readConfigFile('multiauth.yaml');
 */
export function readConfigFile(file: string, chooseOther = DEFAULT_CHOOSE_OTHER): string {
  try {
    return readRegularFile(file, { maxBytes: CONFIG_LIMITS.fileBytes });
  } catch (error) {
    if (!(error instanceof NotRegularFileError)) {
      throw new MultiAuthError('CONFIG_NOT_FOUND', `cannot read the config ${file}: ${(error as Error).message}`, {
        hint: `Make the file readable, or choose another file with ${chooseOther}.`,
      });
    }
    switch (error.reason) {
      case 'directory':
        throw new MultiAuthError('CONFIG_NOT_FOUND', `cannot read the config ${file}: it is a directory`, {
          hint: `Point ${chooseOther} at the multiauth.yaml file itself.`,
        });
      case 'too-large':
        throw new MultiAuthError('CONFIG_LIMIT', `the config ${file} is ${mebibytes(error.size ?? 0)}, more than the ${mebibytes(CONFIG_LIMITS.fileBytes)} a config may be`, {
          hint: 'Check that -c points at the config; split a generated config, or move data (users) out of aliases.',
        });
      case 'not-regular':
      case 'link':
        throw new MultiAuthError('CONFIG_LIMIT', `the config ${file} is not a regular file (a device, a FIFO or a socket)`, {
          hint: 'Write the config to a file and point at that.',
        });
      case 'missing':
        throw new MultiAuthError('CONFIG_NOT_FOUND', `cannot read the config ${file}: no such file`, {
          hint: `Check the path, or create the file (see docs/format.md); choose another file with ${chooseOther}.`,
        });
    }
  }
}

function mebibytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * One pass over the document's nodes, adding to `doc.errors` (where yaml puts its own, so they are
 * reported the same way): duplicate keys (yaml's own `uniqueKeys` check compares every key with
 * every other: minutes on a 40k-key map; the merge key `<<` may repeat), a `__proto__` key (it
 * would reach into the prototype of what it is read into), and nesting deeper than
 * `CONFIG_LIMITS.depth` (later steps walk the config).
 *
 * @example
 * const doc = parseDocument(text, { uniqueKeys: false });
 * checkDocumentShape(doc);
 */
export function checkDocumentShape(doc: Document): void {
  const stack: Array<{ node: unknown; depth: number }> = [{ node: doc.contents, depth: 0 }];
  while (stack.length) {
    const { node, depth } = stack.pop()!;
    if (!isMap(node) && !isSeq(node)) continue;
    const start = node.range?.[0] ?? 0;
    if (depth > CONFIG_LIMITS.depth) {
      doc.errors.push(new YAMLParseError([start, start + 1], 'RESOURCE_EXHAUSTION', `objects and lists are nested more than ${CONFIG_LIMITS.depth} deep here`));
      return;
    }
    if (isSeq(node)) {
      for (const item of node.items) stack.push({ node: item, depth: depth + 1 });
      continue;
    }
    const seen = new Set<string>();
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
      const at = isScalar(pair.key) ? (pair.key.range?.[0] ?? start) : start;
      if (key === '__proto__') {
        doc.errors.push(new YAMLParseError([at, at + 1], 'IMPOSSIBLE', 'the key "__proto__" is not allowed'));
      } else if (key !== undefined && key !== '<<') {
        if (seen.has(key)) doc.errors.push(new YAMLParseError([at, at + 1], 'DUPLICATE_KEY', 'Map keys must be unique'));
        seen.add(key);
      }
      stack.push({ node: pair.value, depth: depth + 1 });
    }
  }
}

/**
 * Refuses a config whose aliases expand it beyond `CONFIG_LIMITS` (a 15 KB file aliasing one map
 * 999 times is 11 MB of config): counted without recursion, stopping at the limit.
 *
 * @throws MultiAuthError `CONFIG_LIMIT`.
 * @example
 * checkExpandedSize(doc.toJS({ maxAliasCount: CONFIG_LIMITS.aliasCount }), 'multiauth.yaml');
 */
export function checkExpandedSize(data: unknown, file: string): void {
  let nodes = 0;
  let chars = 0;
  const stack: unknown[] = [data];
  while (stack.length) {
    const value = stack.pop();
    nodes++;
    if (typeof value === 'string') chars += value.length;
    else if (Array.isArray(value)) for (const item of value) stack.push(item);
    else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        chars += key.length;
        stack.push(item);
      }
    }
    if (nodes > CONFIG_LIMITS.expandedNodes || chars > CONFIG_LIMITS.expandedChars) {
      throw new MultiAuthError('CONFIG_LIMIT', `the config ${file} expands (through its aliases) to more than ${nodes > CONFIG_LIMITS.expandedNodes ? `${CONFIG_LIMITS.expandedNodes} values` : `${mebibytes(CONFIG_LIMITS.expandedChars)} of text`}`, {
        hint: 'Use fewer aliases (*name), or alias smaller values.',
      });
    }
  }
}
