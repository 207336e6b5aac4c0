import { closeSync, constants, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import type { ReplayRow, ReplayVerdict, SkippedCounts } from '../runtime/index.js';

/** The run's replay rows stop growing here: a run that replays more is reported from what fits. */
export const MAX_REPLAY_BYTES = 8 * 1024 * 1024;
/** One line (one row) at most: a row holds a masked URL and a verdict per user. */
const MAX_LINE = 16 * 1024;
const VERDICTS: ReadonlySet<string> = new Set<ReplayVerdict>(['denied', 'error', 'same', 'different']);
const SKIPS = ['unsafe', 'out_of_scope', 'assets', 'over_limit'] as const;

/** What a worker reports of one test's replay: its rows (masked already) and what it skipped, with where the run's table goes. */
export interface ReplayEntry {
  rows: ReplayRow[];
  skipped: SkippedCounts;
  /** The project's output directory, where the run's `multiauth-access-replay.*` are written. */
  out: string;
}

/**
 * Appends a test's replay to the run's file (JSON lines, 0600, `O_APPEND` so workers never
 * interleave, never through a link), one line per row and one for the skipped counts. Best effort.
 *
 * @example
 * appendReplayEntry(file, { rows, skipped, out: testInfo.project.outputDir });
 */
export function appendReplayEntry(file: string, entry: ReplayEntry): void {
  const lines = [...entry.rows.map((row) => JSON.stringify({ row, out: entry.out })), JSON.stringify({ skipped: entry.skipped, out: entry.out })]
    .filter((line) => line.length <= MAX_LINE);
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
    const stat = fstatSync(fd);
    const text = lines.map((line) => `${line}\n`).join('');
    if (!stat.isFile() || stat.size + text.length > MAX_REPLAY_BYTES) return;
    writeSync(fd, text);
  } catch {
    // Best effort: a run's table is never worth a failed test.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The run's replay as written by its workers: rows and skipped counts, each line checked (a line
 * that is not what a worker writes is skipped), at most {@link MAX_REPLAY_BYTES} read.
 *
 * @example
 * const { rows, skipped, outs } = readReplayEntries(file);
 */
export function readReplayEntries(file: string): { rows: ReplayRow[]; skipped: SkippedCounts[]; outs: string[] } {
  const rows: ReplayRow[] = [];
  const skipped: SkippedCounts[] = [];
  const outs = new Set<string>();
  let text = '';
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    if (!fstatSync(fd).isFile()) return { rows, skipped, outs: [] };
    const buffer = Buffer.alloc(MAX_REPLAY_BYTES);
    text = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
  } catch {
    return { rows, skipped, outs: [] };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  for (const line of text.split('\n')) {
    if (!line || line.length > MAX_LINE) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isObject(value)) continue;
    const out = own(value, 'out');
    if (typeof out === 'string' && out.length < 4096) outs.add(out);
    const row = asReplayRow(own(value, 'row'));
    if (row) rows.push(row);
    const counts = asSkipped(own(value, 'skipped'));
    if (counts) skipped.push(counts);
  }
  return { rows, skipped, outs: [...outs] };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An own property (never one inherited, never `__proto__`'s accessor). */
function own(value: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(value, key) ? value[key] : undefined;
}

/**
 * A report row read from untrusted JSON (a worker's line, a report file), checked field by field;
 * undefined when it is not one. Never reads an inherited key nor `__proto__`.
 *
 * @example
 * asReplayRow(JSON.parse(line).row); // { owner: 'alice', method: 'GET', ... } or undefined
 */
export function asReplayRow(value: unknown): ReplayRow | undefined {
  if (!isObject(value)) return undefined;
  const [owner, method, url, pattern] = ['owner', 'method', 'url', 'pattern'].map((key) => own(value, key));
  const status = own(value, 'status');
  const replays = own(value, 'replays');
  const findings = own(value, 'findings');
  if (typeof owner !== 'string' || typeof method !== 'string' || typeof url !== 'string' || typeof pattern !== 'string') return undefined;
  if (!isObject(replays) || !Array.isArray(findings) || !findings.every((user) => typeof user === 'string')) return undefined;
  const cells: ReplayRow['replays'] = Object.create(null) as ReplayRow['replays'];
  for (const [user, cell] of Object.entries(replays)) {
    if (user === '__proto__' || !isObject(cell)) return undefined;
    const verdict = own(cell, 'verdict');
    const cellStatus = own(cell, 'status');
    if (typeof verdict !== 'string' || !VERDICTS.has(verdict)) return undefined;
    cells[user] = { verdict: verdict as ReplayVerdict, ...(typeof cellStatus === 'number' ? { status: cellStatus } : {}) };
  }
  return { owner, method, url, pattern, ...(typeof status === 'number' ? { status } : {}), replays: cells, findings: findings as string[] };
}

function asSkipped(value: unknown): SkippedCounts | undefined {
  if (!isObject(value)) return undefined;
  const counts = { unsafe: 0, out_of_scope: 0, assets: 0, over_limit: 0 };
  for (const key of SKIPS) {
    const n = own(value, key);
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) return undefined;
    counts[key] = n;
  }
  return counts;
}
