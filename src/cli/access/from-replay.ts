import { Document, isMap, isScalar, isSeq, parseDocument, Scalar, YAMLMap, YAMLSeq, type Node } from 'yaml';
import { resolve } from 'node:path';
import { CONFIG_LIMITS } from '../../config/index.js';
import { MultiAuthError } from '../../core/errors.js';
import { NotRegularFileError, readRegularFile, writeFileAtomically } from '../../core/regular-file.js';
import { loadAccess, type ReplayRow } from '../../runtime/index.js';
import { loadReplayRows } from '../../sessions/index.js';
import { displayPath, usableConfig } from '../check-config.js';
import type { CommandInput } from '../command.js';
import { ExitCode, type CliIo } from '../io.js';
import { recordableConfig } from './record.js';
import { replayAccessBlock, type AccessBlock, type BlockCell } from './replay-block.js';
import { findPair, indentOf, keepUnchangedLines, rangeOf } from './update-expect.js';

/** A replay report is read up to this size (the run's rows file's bound). */
const MAX_REPORT_BYTES = 8 * 1024 * 1024;
const REPORT_HINT = 'Give the multiauth-access-replay.json of a run with accessReplay (in its output directory, test-results/ by default), or what multiauth replay --json printed.';

/**
 * The rows of a replay report (`multiauth-access-replay.json`, `multiauth replay --json`): a
 * regular file of at most 8 MiB, JSON, every row checked as the run's own rows are (`asRow`).
 *
 * @throws MultiAuthError `CLI_USAGE` naming the file: missing, too large, not JSON, not a report.
 * @example
 * const rows = readReplayReport('test-results/multiauth-access-replay.json', 'test-results/multiauth-access-replay.json', asReplayRow);
 */
export function readReplayReport(path: string, shown: string, asRow: (value: unknown) => ReplayRow | undefined): ReplayRow[] {
  let text: string;
  try {
    text = readRegularFile(path, { maxBytes: MAX_REPORT_BYTES });
  } catch (error) {
    if (!(error instanceof NotRegularFileError)) throw error;
    throw new MultiAuthError('CLI_USAGE', error.reason === 'missing' ? `${shown}: no such file` : `${shown}: ${error.what}`, { hint: REPORT_HINT });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new MultiAuthError('CLI_USAGE', `${shown}: not JSON`, { hint: REPORT_HINT });
  }
  const requests = typeof data === 'object' && data !== null && Object.hasOwn(data, 'requests') ? (data as { requests: unknown }).requests : undefined;
  if (!Array.isArray(requests)) throw new MultiAuthError('CLI_USAGE', `${shown}: not an access replay report (no "requests" list)`, { hint: REPORT_HINT });
  return requests.map((value, index) => {
    const row = asRow(value);
    if (!row) throw new MultiAuthError('CLI_USAGE', `${shown}: requests[${index}] is not a replayed request (owner, method, url, pattern, replays, findings)`, { hint: REPORT_HINT });
    return row;
  });
}

/**
 * The `access:` block of a replay, as YAML to paste into the config (review notes as comments).
 *
 * @example
 * accessBlockYaml(replayAccessBlock(rows, { names: new Set(), declared: new Set() }, pathOf));
 * // 'access:\n  requests:\n    - name: GET /api/orders/{id}\n ...'
 */
export function accessBlockYaml(block: AccessBlock): string {
  const doc = new Document({});
  const access = new YAMLMap();
  access.add(doc.createPair('requests', requestNodes(doc, block)));
  const expect = new YAMLMap();
  for (const [user, cells] of block.expect) expect.add(doc.createPair(user, cellMap(doc, cells)));
  access.add(doc.createPair('expect', expect));
  (doc.contents as YAMLMap).add(doc.createPair('access', access));
  return doc.toString({ lineWidth: 0 });
}

/**
 * `multiauth matrix --from-replay FILE --update`: adds the replay's block to the config's
 * `access` (requests appended, each user's cells added to its row of `expect`; a single-word row
 * becomes a map whose `"*"` keeps the word), or writes the whole block when it has none. Edits the
 * YAML document (comments, order and everything outside `access` kept as written) and replaces the
 * file atomically, its mode kept, never through a link. Returns how many requests were added.
 *
 * @throws MultiAuthError `CLI_USAGE` for a linked config; `CONFIG_SYNTAX` when it does not parse.
 * @example
 * addReplayToConfig('multiauth.yaml', rows, pathOf); // 4
 */
export function addReplayToConfig(file: string, rows: readonly ReplayRow[], pathOf: (url: string) => string): number {
  const stat = recordableConfig(file);
  const text = readRegularFile(file, { maxBytes: CONFIG_LIMITS.fileBytes, followLinks: false });
  const doc = parseDocument(text, { uniqueKeys: false, logLevel: 'error' });
  if (doc.errors.length > 0 || !isMap(doc.contents)) {
    throw new MultiAuthError('CONFIG_SYNTAX', `${file}: the config does not parse${doc.errors[0] ? `: ${doc.errors[0].message.split('\n')[0]}` : ''}`, {
      hint: 'Fix the config (multiauth validate) before adding the replay to it.',
    });
  }
  const found = doc.get('access', true);
  const access = isMap(found) ? found : undefined;
  const block = replayAccessBlock(rows, declaredOf(access), pathOf);
  if (block.requests.length === 0) return 0;
  let out: string;
  if (!access) {
    out = doc.contents.flow ? jsonWith(doc, block) : `${text}${text.endsWith('\n') || text === '' ? '' : '\n'}${accessBlockYaml(block)}`;
  } else {
    addToAccess(doc, access, block);
    out = doc.contents.flow ? `${JSON.stringify(doc.toJSON(), null, 2)}\n` : spliceAccess(text, access, doc.toString({ indent: indentOf(text, access), lineWidth: 0 }));
  }
  writeFileAtomically(file, out, stat.mode & 0o777);
  return block.requests.length;
}

/** The names and `METHOD url`s the config's requests already have. */
function declaredOf(access: YAMLMap | undefined): { names: Set<string>; declared: Set<string> } {
  const names = new Set<string>();
  const declared = new Set<string>();
  const requests = access?.get('requests', true);
  for (const item of isSeq(requests) ? requests.items : []) {
    if (!isMap(item)) continue;
    const name = item.get('name');
    const method = item.get('method') ?? 'GET';
    const url = item.get('url');
    if (typeof name === 'string') names.add(name);
    if (typeof url === 'string') declared.add(`${String(method).toUpperCase()} ${url}`);
  }
  return { names, declared };
}

function addToAccess(doc: Document, access: YAMLMap, block: AccessBlock): void {
  const existing: unknown = access.get('requests', true);
  const hadRequests = isSeq(existing);
  const requests = hadRequests ? existing : new YAMLSeq();
  for (const node of requestNodes(doc, block).items) requests.add(node);
  requests.flow = false;
  if (!hadRequests) access.set(doc.createNode('requests'), requests);
  const found: unknown = access.get('expect', true);
  const rows = isMap(found) ? found : new YAMLMap();
  if (!isMap(found)) access.set(doc.createNode('expect'), rows);
  rows.flow = false;
  for (const [user, cells] of block.expect) {
    const pair = findPair(rows, user);
    const current = pair?.value as Node | null | undefined;
    if (!pair) {
      const map = cellMap(doc, cells);
      if (hadRequests) map.commentBefore = ' review: a new row: the requests declared before expect deny of this user';
      rows.add(doc.createPair(user, map));
    } else if (isScalar(current)) {
      if (cells.every((cell) => cell.expect === current.value && cell.review === undefined)) continue;
      const map = new YAMLMap();
      map.add(doc.createPair('*', current));
      for (const item of cellMap(doc, cells).items) map.add(item);
      pair.value = map;
    } else if (isMap(current)) {
      current.flow = false;
      for (const item of cellMap(doc, cells).items) current.add(item);
    }
  }
}

function requestNodes(doc: Document, block: AccessBlock): YAMLSeq {
  const seq = new YAMLSeq();
  for (const request of block.requests) {
    const map = doc.createNode({
      name: request.name,
      ...(request.method === 'GET' ? {} : { method: request.method }),
      url: request.url,
      ...(request.unsafe ? { unsafe: true } : {}),
    }) as YAMLMap;
    if (request.review) map.commentBefore = ` review: ${request.review}`;
    seq.add(map);
  }
  return seq;
}

function cellMap(doc: Document, cells: readonly BlockCell[]): YAMLMap {
  const map = new YAMLMap();
  for (const cell of cells) {
    const key = new Scalar(cell.request);
    if (cell.review) key.commentBefore = ` review: ${cell.review}`;
    map.add(doc.createPair(key, new Scalar(cell.expect)));
  }
  return map;
}

/** A JSON config (a flow map at the top) with the whole block added, written back as JSON. */
function jsonWith(doc: Document, block: AccessBlock): string {
  const data = doc.toJSON() as Record<string, unknown>;
  data.access = parseDocument(accessBlockYaml(block)).toJSON().access;
  return `${JSON.stringify(data, null, 2)}\n`;
}

/** The original text with only its `access` pair replaced by the rewritten one; lines it did not change kept as written. */
function spliceAccess(original: string, access: YAMLMap, rewritten: string): string {
  const root = parseDocument(original, { uniqueKeys: false, logLevel: 'error' }).contents;
  const before = isMap(root) ? findPair(root, 'access') : undefined;
  const after = parseDocument(rewritten, { uniqueKeys: false, logLevel: 'error' }).contents;
  const next = isMap(after) ? findPair(after, 'access') : undefined;
  const beforeRange = before && rangeOf(before);
  const nextRange = next && rangeOf(next);
  if (!beforeRange || !nextRange || access.flow) return rewritten;
  const old = original.slice(beforeRange[0], beforeRange[1]);
  let segment = rewritten.slice(nextRange[0], nextRange[1]);
  if (!old.endsWith('\n')) segment = segment.replace(/\n$/, '');
  return original.slice(0, beforeRange[0]) + keepUnchangedLines(old, segment) + original.slice(beforeRange[1]);
}

/**
 * `multiauth matrix --from-replay FILE [--update] [-c FILE]`: prints the `access:` block drafted
 * from a replay report, or with `--update` adds it to the config (the config is read and checked
 * as every command reads it first; nothing is sent).
 *
 * @throws MultiAuthError `CLI_USAGE` with `--from-openapi`, or for a file that is not a report.
 * @example
 * await fromReplayRun({ 'from-replay': 'test-results/multiauth-access-replay.json' }, io); // prints "access:\n  requests: ..."
 */
export async function fromReplayRun(values: CommandInput['values'], io: CliIo): Promise<number> {
  if (values['from-openapi'] !== undefined) {
    throw new MultiAuthError('CLI_USAGE', '--from-replay and --from-openapi draft from different sources: give one', { hint: 'Run multiauth matrix twice, once with each.' });
  }
  const shown = values['from-replay'] as string;
  const rows = readReplayReport(resolve(io.cwd, shown), shown, (await loadReplayRows()).asReplayRow);
  const { pathOf } = await loadAccess();
  if (!values.update) {
    io.stdout.write(accessBlockYaml(replayAccessBlock(rows, { names: new Set(), declared: new Set() }, pathOf)));
    return ExitCode.OK;
  }
  const opened = await usableConfig(values.config as string | undefined, io);
  const added = addReplayToConfig(opened.file, rows, pathOf);
  io.stderr.write(added
    ? `added ${added} request${added === 1 ? '' : 's'} of the replay to access of ${displayPath(opened.file, io.cwd)}: review the lines marked "# review:" before committing\n`
    : `every request of the replay is declared in access of ${displayPath(opened.file, io.cwd)} already: nothing added\n`);
  return ExitCode.OK;
}
