import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { packageModule } from '../core/package-files.js';
import { canRequireNow } from '../core/lazy-module.js';
import { loadReplayRows, loadRunTimeline, readRunEvents, requireReplayRows, requireRunTimeline, runTotals, summaryLine, type RunEvent } from '../sessions/index.js';
import { loadAccess, requireAccess } from '../runtime/index.js';

/** The variable a runner shares its events folder in, with its workers: `<runner pid>:<folder>`. */
const EVENTS_VARIABLE = 'MULTIAUTH_RUN_EVENTS';

/** The files of the timeline, in each project's output directory and attached to the report. */
export const TIMELINE_FILES = { html: 'multiauth-timeline.html', text: 'multiauth-timeline.txt' } as const;

/** The run's access replay table, in each output directory of a project that replayed (docs/access.md). */
export const REPLAY_FILES = { json: 'multiauth-access-replay.json', markdown: 'multiauth-access-replay.md' } as const;

/** The rows the workers of a replaying run write beside its events (access-replay.ts). */
const REPLAY_ROWS = 'access-replay.jsonl';

/**
 * Where a worker adds its tests' replay rows, beside the run's events; undefined as for {@link runEventsFile}.
 *
 * @example
 * const file = replayRowsFile(process.env); // '/tmp/multiauth-run-Xy12/access-replay.jsonl'
 */
export function replayRowsFile(env: Record<string, string | undefined>): string | undefined {
  const events = runEventsFile(env);
  return events === undefined ? undefined : join(dirname(events), REPLAY_ROWS);
}

/**
 * Where the workers of a replaying run claim what they replay and add up its time, beside the
 * rows; undefined as for {@link runEventsFile}.
 *
 * @example
 * const dir = replayClaimsDir(process.env); // '/tmp/multiauth-run-Xy12/access-replay-claims'
 */
export function replayClaimsDir(env: Record<string, string | undefined>): string | undefined {
  const events = runEventsFile(env);
  return events === undefined ? undefined : join(dirname(events), 'access-replay-claims');
}

/** The project {@link authTimeline} adds, whose one test attaches the timeline to the report. */
export const TIMELINE_PROJECT = 'multiauth timeline';

let timeline: Awaited<ReturnType<typeof loadRunTimeline>> | undefined;
let access: Awaited<ReturnType<typeof loadAccess>> | undefined;
let replayRows: Awaited<ReturnType<typeof loadReplayRows>> | undefined;

/**
 * Called when the Playwright runner loads this package: makes the run's private events folder
 * (0700, in the system's temporary folder), shares it with the workers the runner will start
 * (through `env`), and at the runner's exit prints the run's `multiauth:` line, writes the
 * timeline into the output directory of each project that signed someone in, and removes the
 * folder. A worker, or a run that signed nobody in, prints nothing. Each shard of a sharded run
 * is a runner of its own: it says what its own workers did.
 *
 * @example
 * shareRunEvents(process.env); // the runner, before any worker starts
 */
export function shareRunEvents(env: Record<string, string | undefined>): void {
  if (env.TEST_WORKER_INDEX !== undefined || env[EVENTS_VARIABLE]?.startsWith(`${process.pid}:`)) return;
  let dir: string;
  try {
    dir = mkdtempSync(join(tmpdir(), 'multiauth-run-'));
  } catch {
    return;
  }
  env[EVENTS_VARIABLE] = `${process.pid}:${dir}`;
  // The exit handler cannot wait. An installed copy requires what it draws with then, and only what
  // the run needs; from the sources it is loaded now, while the runner has time. Not now always:
  // the runner loads it before it starts its workers, when every millisecond delays the first test.
  if (!canRequireNow()) {
    void loadRunTimeline()
      .then((module) => (timeline = module))
      .catch(() => undefined);
    void loadAccess()
      .then((module) => (access = module))
      .catch(() => undefined);
    void loadReplayRows()
      .then((module) => (replayRows = module))
      .catch(() => undefined);
  }
  process.once('exit', () => summarise(dir));
}

/**
 * The run's events file, for a worker of the runner that shared it ({@link shareRunEvents}), or
 * undefined: a process no runner of this package started records nothing.
 *
 * @example
 * const file = runEventsFile(process.env); // '/tmp/multiauth-run-Xy12/events.jsonl'
 */
export function runEventsFile(env: Record<string, string | undefined>): string | undefined {
  const shared = env[EVENTS_VARIABLE];
  const prefix = `${process.ppid}:`;
  if (env.TEST_WORKER_INDEX === undefined || !shared?.startsWith(prefix) || shared.length === prefix.length) return undefined;
  return join(shared.slice(prefix.length), 'events.jsonl');
}

/**
 * The runner's own events file (the folder it shared with {@link shareRunEvents}), for what the
 * runner itself signs in (the sign-in ahead); undefined in a worker, or when none was shared.
 *
 * @example
 * const file = runnerEventsFile(process.env); // '/tmp/multiauth-run-Xy12/events.jsonl'
 */
export function runnerEventsFile(env: Record<string, string | undefined>): string | undefined {
  const shared = env[EVENTS_VARIABLE];
  const prefix = `${process.pid}:`;
  if (env.TEST_WORKER_INDEX !== undefined || !shared?.startsWith(prefix) || shared.length === prefix.length) return undefined;
  return join(shared.slice(prefix.length), 'events.jsonl');
}

/** The file a worker leaves beside the run's events when it starts ({@link markWorkerStarted}). */
export const WORKER_STARTED = 'worker-started';

/**
 * Tells the runner that one of its workers has started: Playwright has started the config's
 * `webServer` and run `globalSetup` by then, so the applications are up and their users exist.
 * The runner's sign-in ahead waits for it. Called when a worker loads this package; cheap, and
 * silent when it cannot (another worker said it first, or the runner shared no folder).
 *
 * @example
 * markWorkerStarted(process.env);
 */
export function markWorkerStarted(env: Record<string, string | undefined>): void {
  const events = runEventsFile(env);
  if (events === undefined) return;
  try {
    writeFileSync(join(dirname(events), WORKER_STARTED), '', { flag: 'wx', mode: 0o600 });
  } catch {
    // Said already, or the folder is gone (the run ended).
  }
}

/**
 * Prints the run's line and writes its timeline. Synchronous: it runs in the runner's `exit`.
 * Never throws: the run's own exit code stands.
 */
function summarise(dir: string): void {
  try {
    summariseReplay(join(dir, REPLAY_ROWS));
    const events = readRunEvents(join(dir, 'events.jsonl'));
    if (events.length === 0) return;
    const written = writeTimelines(events);
    const where = written[0] === undefined ? undefined : relative(process.cwd(), written[0]) || written[0];
    // Standard error: a reporter writing to standard output (`--reporter=json`) stays what it claims to be.
    process.stderr.write(`${summaryLine(runTotals(events), where)}\n`);
  } catch {
    // Nothing to say: the run's own report stands.
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The run's access replay (when a test replayed): its table as JSON and Markdown in each output
 * directory the rows name, and its line. The rows were masked by the workers (secrets the run's
 * redactor knows, query values). Never throws.
 */
function summariseReplay(file: string): void {
  if (!existsSync(file)) return;
  replayRows ??= requireReplayRows();
  access ??= requireAccess();
  if (!access || !replayRows) return;
  const { rows, skipped, outs } = replayRows.readReplayEntries(file);
  if (rows.length === 0 && skipped.length === 0) return;
  const report = access.replayReport(rows, skipped);
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const markdown = access.replayMarkdown(report);
  for (const out of outs) {
    try {
      mkdirSync(out, { recursive: true });
      writeFileSync(join(out, REPLAY_FILES.json), json, { mode: 0o600 });
      writeFileSync(join(out, REPLAY_FILES.markdown), markdown, { mode: 0o600 });
    } catch {
      // A read-only output directory: the line still says what the replay found.
    }
  }
  process.stderr.write(`${access.replaySummaryLine(report)}\n`);
}

/** Writes the timeline's HTML and text into each output directory the events name; the HTML files' paths. */
function writeTimelines(events: readonly RunEvent[]): string[] {
  timeline ??= requireRunTimeline();
  if (!timeline) return [];
  const html = timeline.timelineHtml(events);
  const text = timeline.timelineText(events);
  const written: string[] = [];
  for (const out of new Set(events.flatMap((event) => (event.out ? [event.out] : [])))) {
    try {
      mkdirSync(out, { recursive: true });
      writeFileSync(join(out, TIMELINE_FILES.html), html, { mode: 0o600 });
      writeFileSync(join(out, TIMELINE_FILES.text), text, { mode: 0o600 });
      written.push(join(out, TIMELINE_FILES.html));
    } catch {
      // A read-only output directory: the line still says what the run cost.
    }
  }
  return written;
}

/**
 * `projects` with the project that attaches the run's sign-in timeline to the report (HTML with a
 * picture, and a text table, named `multiauth-timeline.*`): every project given gets it as its
 * `teardown` (one that has a teardown of its own keeps it), so its one test runs after them all,
 * whether they passed or not. The run's `multiauth:` line and the timeline files in the output
 * directory need nothing of this: they come with every run.
 *
 * @example
 * export default defineConfig({
 *   projects: authTimeline([
 *     ...authProjects({ name: 'roles', testMatch: /roles\.spec\.ts/ }),
 *     { name: 'scenarios', testIgnore: /roles\.spec\.ts/ },
 *   ]),
 * });
 */
export function authTimeline<P extends { name?: string; teardown?: string }>(projects: readonly P[]): Array<P | TimelineProject> {
  const teardown = packageModule('playwright/timeline-teardown');
  const file = basename(teardown);
  return [
    ...projects.map((project) => (project.teardown === undefined ? { ...project, teardown: TIMELINE_PROJECT } : project)),
    { name: TIMELINE_PROJECT, testDir: dirname(teardown), testMatch: new RegExp(`[\\\\/]${escapeRegExp(file)}$`), testIgnore: [], workers: 1 },
  ];
}

/** The project {@link authTimeline} adds. */
export interface TimelineProject {
  name: string;
  testDir: string;
  testMatch: RegExp;
  testIgnore: never[];
  workers: number;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
