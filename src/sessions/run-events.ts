import { closeSync, fstatSync, openSync, readSync, writeSync, constants } from 'node:fs';

/** What happened to a user's session, as the run's summary counts it. */
export type RunEventKind = 'signed-in' | 'cached' | 'refreshed' | 're-signed-in' | 'denial' | 'failed';

/**
 * One sign-in of the run, or a session taken from the cache, a refresh, a re-sign-in, a denial
 * kept or a failure: who, where (the worker), when and how long it took. Nothing secret: a user
 * name is an identifier; `reason` is what made a re-sign-in (`status 401`, `expired`), `code`
 * a failure's error code.
 */
export interface RunEvent {
  kind: RunEventKind;
  user: string;
  /** `worker 3`, or the command (`check`). */
  worker: string;
  /** When it started, Unix ms. */
  at: number;
  ms: number;
  reason?: string;
  code?: string;
  /** The project's output directory (Playwright), where the run's timeline is written. */
  out?: string;
}

/** The events file stops growing here: a run that signs in this much is summarised from what fits. */
export const MAX_EVENTS_BYTES = 4 * 1024 * 1024;
const MAX_LINE = 2048;
const MAX_TEXT = 200;
const KINDS: ReadonlySet<string> = new Set<RunEventKind>(['signed-in', 'cached', 'refreshed', 're-signed-in', 'denial', 'failed']);

/**
 * Appends `event` to the run's events file (JSON lines, created 0600, `O_APPEND` so that the
 * workers' lines never interleave, never through a link), unless the file has reached
 * {@link MAX_EVENTS_BYTES}. Best effort: a run's summary is never worth a failed test.
 *
 * @example
 * appendRunEvent(file, { kind: 'signed-in', user: 'alice', worker: 'worker 0', at: Date.now(), ms: 412 });
 */
export function appendRunEvent(file: string, event: RunEvent): void {
  const line = `${JSON.stringify(bounded(event))}\n`;
  if (line.length > MAX_LINE) return;
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size + line.length > MAX_EVENTS_BYTES) return;
    writeSync(fd, line);
  } catch {
    // Best effort (see above).
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The events of the run's events file, in the order they were written: at most
 * {@link MAX_EVENTS_BYTES} read, lines that are not events skipped. A missing file has none.
 *
 * @example
 * const events = readRunEvents(file);
 */
export function readRunEvents(file: string): RunEvent[] {
  let text: string;
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    if (!fstatSync(fd).isFile()) return [];
    const buffer = Buffer.alloc(MAX_EVENTS_BYTES);
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    text = buffer.subarray(0, length).toString('utf8');
  } catch {
    return [];
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const events: RunEvent[] = [];
  for (const line of text.split('\n')) {
    if (line.length === 0 || line.length > MAX_LINE) continue;
    try {
      const event = asEvent(JSON.parse(line));
      if (event) events.push(event);
    } catch {
      // A line cut short by a full disk: the others still count.
    }
  }
  return events;
}

/** What a run's sign-ins cost, counted from its events. */
export interface RunTotals {
  /** Users signed in (first sign-ins, not the re-sign-ins) and the time those took. */
  signedIn: number;
  signInMs: number;
  /** Users whose session came from the cache (an earlier run's, or another process's). */
  cached: number;
  refreshed: number;
  /** Re-sign-ins, and how many for each reason, in the order first seen. */
  reSignedIn: number;
  reasons: Array<[string, number]>;
  denials: number;
  failed: number;
}

/**
 * Counts `events`: each user's first sign-in once, each user taken from the cache once (only when
 * the run did not sign it in first: the workers that read what another just signed in add nothing),
 * every refresh, re-sign-in, denial kept and failure.
 *
 * @example
 * runTotals(readRunEvents(file)).signedIn; // 2
 */
export function runTotals(events: readonly RunEvent[]): RunTotals {
  const signed = new Set<string>();
  const cached = new Set<string>();
  const reasons = new Map<string, number>();
  const totals: RunTotals = { signedIn: 0, signInMs: 0, cached: 0, refreshed: 0, reSignedIn: 0, reasons: [], denials: 0, failed: 0 };
  // By when each ended: a worker that waited for the lock read what another had just signed in.
  for (const event of [...events].sort((a, b) => a.at + a.ms - (b.at + b.ms))) {
    if (event.kind === 'signed-in' && !signed.has(event.user)) {
      signed.add(event.user);
      totals.signedIn += 1;
      totals.signInMs += event.ms;
    } else if (event.kind === 'cached' && !signed.has(event.user) && !cached.has(event.user)) {
      cached.add(event.user);
      totals.cached += 1;
    } else if (event.kind === 'refreshed') totals.refreshed += 1;
    else if (event.kind === 're-signed-in' || (event.kind === 'signed-in' && signed.has(event.user))) {
      totals.reSignedIn += 1;
      const reason = event.reason ?? 'signed in again';
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    } else if (event.kind === 'denial') totals.denials += 1;
    else if (event.kind === 'failed') totals.failed += 1;
  }
  totals.reasons = [...reasons];
  return totals;
}

/**
 * The run's one line: `multiauth: 2 users signed in (1.24 s), 1 from the cache, 0 refreshed,
 * 1 signed in again (status 401), 0 denials kept, 0 failed`, with `where` (the timeline's file)
 * after it when given.
 *
 * @example
 * process.stdout.write(`${summaryLine(runTotals(events))}\n`);
 */
export function summaryLine(totals: RunTotals, where?: string): string {
  const reasons = totals.reasons.map(([reason, count]) => (count > 1 ? `${reason} ×${count}` : reason)).join(', ');
  const parts = [
    `${count(totals.signedIn, 'user')} signed in (${(totals.signInMs / 1000).toFixed(2)} s)`,
    `${totals.cached} from the cache`,
    `${totals.refreshed} refreshed`,
    `${totals.reSignedIn} signed in again${reasons ? ` (${reasons})` : ''}`,
    `${count(totals.denials, 'denial')} kept`,
    `${totals.failed} failed`,
  ];
  return `multiauth: ${parts.join(', ')}${where ? `; timeline: ${where}` : ''}`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function bounded(event: RunEvent): RunEvent {
  const text = (value: string) => (value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value);
  return {
    kind: event.kind,
    user: text(event.user),
    worker: text(event.worker),
    at: Math.round(event.at),
    ms: Math.max(0, Math.round(event.ms)),
    ...(event.reason === undefined ? {} : { reason: text(event.reason) }),
    ...(event.code === undefined ? {} : { code: text(event.code) }),
    ...(event.out === undefined || event.out.length > 4 * MAX_TEXT ? {} : { out: event.out }),
  };
}

/** A parsed line as an event, or undefined: every field checked, nothing else kept. */
function asEvent(value: unknown): RunEvent | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  const str = (key: string) => (Object.hasOwn(v, key) && typeof v[key] === 'string' ? (v[key] as string) : undefined);
  const num = (key: string) => (Object.hasOwn(v, key) && typeof v[key] === 'number' && Number.isFinite(v[key]) ? (v[key] as number) : undefined);
  const kind = str('kind');
  const user = str('user');
  const worker = str('worker');
  const at = num('at');
  const ms = num('ms');
  if (kind === undefined || !KINDS.has(kind) || user === undefined || worker === undefined || at === undefined || ms === undefined) return undefined;
  const reason = str('reason');
  const code = str('code');
  const out = str('out');
  return bounded({ kind: kind as RunEventKind, user, worker, at, ms, ...(reason === undefined ? {} : { reason }), ...(code === undefined ? {} : { code }), ...(out === undefined ? {} : { out }) });
}
