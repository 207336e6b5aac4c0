import { isMap, isScalar, parseDocument, Scalar, YAMLMap, type Document, type Node, type Pair } from 'yaml';
import { MultiAuthError } from '../../core/errors.js';

/** One cell the matrix observed: how the answer was classified, and its status when there was one. */
export interface ObservedCell {
  outcome: 'allow' | 'deny' | 'error';
  status?: number;
}

/** What one run of the matrix observed, users and requests in the config's order. */
export interface ObservedMatrix {
  users: string[];
  requests: string[];
  cells: Record<string, Record<string, ObservedCell>>;
}

/** An expectation as `access.expect` writes it. */
type Expectation = 'allow' | 'deny' | number;

/** A block map of more than this many characters on one line reads worse than a block. */
const FLOW_WIDTH = 100;

/**
 * Writes what the matrix observed into the config's `access.expect`, as a first recording that a
 * person then reviews: `allow` and `deny` as words, an error as its status code. Edits the YAML
 * document in place (the `yaml` package's Document API), so comments, key order and formatting of
 * everything else stay as written; `access.expect` is created when absent. A user whose every cell
 * is the same gets the single word (`admin: allow`); the others get one entry per request, existing
 * entries updated where they stand and new ones appended in the requests' order. A cell that
 * observed no status at all (the server did not answer) keeps what the config expected.
 * A JSON config (a flow map at the top) is written back as JSON, two spaces.
 *
 * @throws MultiAuthError `CONFIG_SYNTAX` when the text does not parse, `CONFIG_INVALID` when it has
 *   no `access` map to record into.
 * @example
 * const text = updateAccessExpect(readFileSync('multiauth.yaml', 'utf8'), {
 *   users: ['admin', 'viewer'], requests: ['list users', 'delete user'],
 *   cells: { admin: { 'list users': { outcome: 'allow', status: 200 }, 'delete user': { outcome: 'allow', status: 204 } },
 *            viewer: { 'list users': { outcome: 'allow', status: 200 }, 'delete user': { outcome: 'deny', status: 403 } } },
 * });
 * // access.expect: { admin: allow, viewer: { list users: allow, delete user: deny } }
 */
export function updateAccessExpect(yamlText: string, observed: ObservedMatrix): string {
  const doc = parseDocument(yamlText, { uniqueKeys: false, logLevel: 'error' });
  if (doc.errors.length > 0) {
    throw new MultiAuthError('CONFIG_SYNTAX', `the config does not parse: ${doc.errors[0]!.message.split('\n')[0]}`, {
      hint: 'Fix the config (multiauth validate) before recording the matrix into it.',
    });
  }
  const access = doc.get('access', true);
  if (!isMap(access)) {
    throw new MultiAuthError('CONFIG_INVALID', 'the config has no `access` map to record the matrix into', {
      path: ['access'],
      hint: 'Declare `access.requests` first (or draft them with multiauth matrix --from-openapi FILE).',
    });
  }
  const found: unknown = access.get('expect', true);
  let expect: YAMLMap;
  if (isMap(found)) {
    expect = found;
    // A flow `expect: {}` (a first recording's placeholder) grows to a row per user: a block reads
    // better, and the comment that trailed `{}` goes above the rows, not after the last one.
    if (expect.flow && expect.comment) {
      expect.commentBefore = expect.commentBefore ? `${expect.commentBefore}\n${expect.comment}` : expect.comment;
      expect.comment = undefined;
    }
    expect.flow = false;
  } else {
    expect = new YAMLMap();
    access.set(doc.createNode('expect'), expect);
  }
  for (const user of observed.users) recordUser(doc, expect, user, observed);
  if (isMap(doc.contents) && doc.contents.flow === true) return `${JSON.stringify(doc.toJSON(), null, 2)}\n`;
  return spliceExpect(yamlText, access, doc.toString({ indent: indentOf(yamlText, access) }));
}

/**
 * The original text with only its `access.expect` replaced by the one of `rewritten` (the whole
 * edited document as the `yaml` package prints it): the printer normalises spacing (before
 * comments, inside flow collections) everywhere, and a recording must not restyle what it did not
 * record.
 */
function spliceExpect(original: string, access: YAMLMap, rewritten: string): string {
  const after = parseDocument(rewritten, { uniqueKeys: false, logLevel: 'error' }).get('access', true);
  const next = isMap(after) ? findPair(after, 'expect') : undefined;
  const nextRange = next && rangeOf(next);
  if (!nextRange || access.flow) return rewritten;
  let segment = rewritten.slice(nextRange[0], nextRange[1]);
  const before = findPair(access, 'expect');
  const beforeRange = before && rangeOf(before);
  if (beforeRange) {
    const old = original.slice(beforeRange[0], beforeRange[1]);
    if (!old.endsWith('\n')) segment = segment.replace(/\n$/, '');
    segment = keepUnchangedLines(old, segment);
    return original.slice(0, beforeRange[0]) + segment + original.slice(beforeRange[1]);
  }
  const end = access.range?.[1] ?? original.length;
  const lineStart = rewritten.lastIndexOf('\n', nextRange[0] - 1) + 1;
  const head = original.slice(0, end);
  const separator = head.endsWith('\n') || head.length === 0 ? '' : '\n';
  const insert = rewritten.slice(lineStart, nextRange[0]) + segment + (segment.endsWith('\n') ? '' : '\n');
  return head + separator + insert + original.slice(end);
}

/** Lines the recording did not change, as they were written (the printer respaces trailing comments). */
export function keepUnchangedLines(old: string, segment: string): string {
  const normal = (line: string) => line.replace(/[ \t]+#/, ' #').trimEnd();
  const written = new Map<string, string>();
  for (const line of old.split('\n')) if (!written.has(normal(line))) written.set(normal(line), line);
  return segment
    .split('\n')
    .map((line) => written.get(normal(line)) ?? line)
    .join('\n');
}

/** From a pair's key to the end of its value (without a comment that trails a flow value or scalar). */
export function rangeOf(pair: Pair): [number, number] | undefined {
  const key = pair.key as Node | null;
  const value = pair.value as Node | null;
  const start = key?.range?.[0];
  const end = value?.range?.[1] ?? key?.range?.[1];
  return start === undefined || end === undefined ? undefined : [start, end];
}

/** The file's indentation step, read off the first key under `access` (the config's own style). */
export function indentOf(text: string, access: YAMLMap): number {
  const start = (access.items[0]?.key as Node | null)?.range?.[0];
  if (start === undefined || access.flow) return 2;
  const column = start - (text.lastIndexOf('\n', start - 1) + 1);
  return column >= 1 && column <= 8 ? column : 2;
}

function recordUser(doc: Document, expect: YAMLMap, user: string, observed: ObservedMatrix): void {
  const pair = findPair(expect, user);
  const current = pair?.value as Node | null | undefined;
  const values = observed.requests.map((request) => expectationOf(observed.cells[user]?.[request]) ?? currentExpectation(current, request));
  const first = values[0];
  if (first !== undefined && values.every((value) => value === first)) {
    setValue(doc, expect, user, pair, first);
    return;
  }
  const map = isMap(current) ? current : new YAMLMap();
  observed.requests.forEach((request, i) => {
    const value = values[i];
    if (value !== undefined) setValue(doc, map, request, findPair(map, request), value);
  });
  if (values.every((value) => value !== undefined)) map.delete('*');
  if (map !== current) {
    map.flow = flowWidth(map) <= FLOW_WIDTH;
    if (isScalar(current) && current.comment) map.comment = current.comment;
    if (pair) pair.value = map;
    else expect.add(doc.createPair(user, map));
  }
}

/** `allow` / `deny` as observed; an error as its status; nothing when the server did not answer. */
function expectationOf(cell: ObservedCell | undefined): Expectation | undefined {
  if (!cell) return undefined;
  if (cell.outcome !== 'error') return cell.outcome;
  return cell.status;
}

/** What the config expected of `request` before: its own entry, else `*`, else the single word. */
function currentExpectation(current: Node | null | undefined, request: string): Expectation | undefined {
  if (isScalar(current)) return asExpectation(current.value);
  if (!isMap(current)) return undefined;
  const own = findPair(current, request) ?? findPair(current, '*');
  return isScalar(own?.value) ? asExpectation(own.value.value) : undefined;
}

function asExpectation(value: unknown): Expectation | undefined {
  return value === 'allow' || value === 'deny' || typeof value === 'number' ? value : undefined;
}

/** Keys compared as the config loader reads them: as strings. */
export function findPair(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((item) => String(isScalar(item.key) ? item.key.value : item.key) === key);
}

/** Sets a value, keeping the old scalar node (and the comment on it) when there was one. */
function setValue(doc: Document, map: YAMLMap, key: string, pair: Pair | undefined, value: Expectation): void {
  if (pair && isScalar(pair.value)) {
    pair.value.value = value;
    return;
  }
  const node = new Scalar(value);
  if (pair) {
    const old = pair.value as Node | null;
    if (old && 'comment' in old && old.comment) node.comment = old.comment;
    pair.value = node;
  } else {
    map.add(doc.createPair(key, node));
  }
}

function flowWidth(map: YAMLMap): number {
  let width = 4;
  for (const item of map.items) {
    width += String(isScalar(item.key) ? item.key.value : item.key).length + 4;
    width += String(isScalar(item.value) ? item.value.value : '').length;
  }
  return width;
}
