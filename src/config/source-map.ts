import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';
import type { SourceLocation } from '../core/errors.js';
import type { ConfigPath } from '../core/path.js';

/**
 * Maps config paths to `file:line:col` positions (1-based) in the parsed YAML/JSON document, so
 * every issue can point where the user has to look.
 *
 * @example
 * const lineCounter = new LineCounter();
 * const doc = parseDocument(text, { lineCounter });
 * const map = new SourceMap(doc, lineCounter, 'multiauth.yaml', text);
 * map.locate(['users', 0, 'name']); // { file: 'multiauth.yaml', line: 3, column: 11 }
 */
export class SourceMap {
  constructor(
    private readonly doc: Document,
    private readonly lineCounter: LineCounter,
    readonly file: string,
    /** The text the document was parsed from. */
    readonly source: string,
  ) {}

  /** Position of the value at `path`, or of its nearest ancestor that exists in the file. */
  locate(path: ConfigPath): SourceLocation | undefined {
    let node = this.resolve(this.doc.contents as Node | null);
    let found = this.offsetOf(node);
    for (const key of path) {
      const next = this.child(node, key);
      if (!next) break;
      node = this.resolve(next.value);
      found = this.offsetOf(node) ?? this.offsetOf(next.key) ?? found;
    }
    return found === undefined ? undefined : this.at(found);
  }

  /**
   * Position of the key that ends `path` (`['users', 0, 'nmae']` points at `nmae`), for issues about
   * the key itself; falls back to {@link SourceMap.locate}.
   */
  locateKey(path: ConfigPath): SourceLocation | undefined {
    const parent = this.nodeAt(path.slice(0, -1));
    const last = path[path.length - 1];
    if (parent && last !== undefined) {
      const entry = this.child(parent, last);
      const offset = this.offsetOf(entry?.key) ?? this.offsetOf(entry?.value);
      if (offset !== undefined) return this.at(offset);
    }
    return this.locate(path);
  }

  /** Positions of every key that ends `path`: more than one when the file repeats the key. */
  locateKeys(path: ConfigPath): SourceLocation[] {
    const parent = this.nodeAt(path.slice(0, -1));
    const last = path[path.length - 1];
    if (!isMap(parent) || last === undefined) return [];
    return parent.items
      .filter((pair) => isPair(pair) && keyOf(pair.key) === String(last))
      .map((pair) => this.offsetOf(pair.key))
      .filter((offset): offset is number => offset !== undefined)
      .map((offset) => this.at(offset));
  }

  /** The path of the innermost node whose source contains `offset` (for syntax errors). */
  pathAt(offset: number): ConfigPath {
    const path: Array<string | number> = [];
    let node = this.doc.contents as Node | null | undefined;
    for (;;) {
      if (isMap(node)) {
        const pair = node.items.find((p) => contains(p.key, offset) || contains(p.value, offset));
        if (!pair) break;
        path.push(keyOf(pair.key));
        if (contains(pair.key, offset)) break;
        node = pair.value as Node | null;
      } else if (isSeq(node)) {
        const index = node.items.findIndex((item) => contains(item, offset));
        if (index < 0) break;
        path.push(index);
        node = node.items[index] as Node;
      } else break;
    }
    return path;
  }

  /** 1-based line and column of a character offset of the source text. */
  at(offset: number): SourceLocation {
    const { line, col } = this.lineCounter.linePos(offset);
    return { file: this.file, line, column: col };
  }

  private nodeAt(path: ConfigPath): Node | undefined {
    let node = this.resolve(this.doc.contents as Node | null);
    for (const key of path) {
      const next = this.child(node, key);
      if (!next) return undefined;
      node = this.resolve(next.value);
    }
    return node;
  }

  private child(node: Node | undefined, key: string | number): { key?: unknown; value: unknown } | undefined {
    if (isMap(node)) {
      // The last pair wins, as in the parsed data (a merge key `<<` may have added earlier ones).
      for (let i = node.items.length - 1; i >= 0; i--) {
        const pair = node.items[i]!;
        if (isPair(pair) && keyOf(pair.key) === String(key)) return { key: pair.key, value: pair.value };
      }
      return undefined;
    }
    if (isSeq(node) && typeof key === 'number') {
      const item = node.items[key];
      return item === undefined ? undefined : { value: item };
    }
    return undefined;
  }

  private resolve(node: unknown): Node | undefined {
    if (isAlias(node)) return (node.resolve(this.doc) as Node | undefined) ?? node;
    return (node ?? undefined) as Node | undefined;
  }

  private offsetOf(node: unknown): number | undefined {
    const range = (node as Node | null | undefined)?.range;
    return range ? range[0] : undefined;
  }
}

/**
 * The text of a map key as the parsed data has it.
 *
 * @example
 * keyOf(new Scalar(200)); // '200'
 */
export function keyOf(key: unknown): string {
  if (isScalar(key)) return String(key.value);
  try {
    return String(key);
  } catch {
    // A map or list used as a key stringifies through yaml's toJS, which throws on a bad merge (`<<: *scalar`).
    return '(a key that is not a string)';
  }
}

function contains(node: unknown, offset: number): boolean {
  const range = (node as Node | null | undefined)?.range;
  return !!range && range[0] <= offset && offset < Math.max(range[2], range[0] + 1);
}
