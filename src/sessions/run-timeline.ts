import type { RunEvent, RunEventKind } from './run-events.js';
import { runTotals, summaryLine } from './run-events.js';

/** The rows a timeline shows; a run with more shows its first ones and says how many it left out. */
const MAX_ROWS = 2000;

const WHAT: Record<RunEventKind, string> = {
  'signed-in': 'signed in',
  cached: 'from the cache',
  refreshed: 'refreshed',
  're-signed-in': 'signed in again',
  denial: 'denial kept',
  failed: 'failed',
};

const COLOUR: Record<RunEventKind, string> = {
  'signed-in': '#2f7ed8',
  cached: '#8bbc21',
  refreshed: '#f28f43',
  're-signed-in': '#910000',
  denial: '#777777',
  failed: '#d00000',
};

/** One row of the timeline's table. */
export interface TimelineRow {
  /** Seconds since the run's first event. */
  start: number;
  worker: string;
  user: string;
  what: string;
  ms: number;
}

/**
 * The rows of a run's timeline, in the order they started: which worker did what for whom, when
 * (seconds from the first) and how long it took.
 *
 * @example
 * timelineRows(events)[0]; // { start: 0, worker: 'worker 0', user: 'alice', what: 'signed in', ms: 412 }
 */
export function timelineRows(events: readonly RunEvent[]): TimelineRow[] {
  const sorted = [...events].sort((a, b) => a.at - b.at).slice(0, MAX_ROWS);
  const first = sorted[0]?.at ?? 0;
  return sorted.map((event) => ({
    start: (event.at - first) / 1000,
    worker: event.worker,
    user: event.user,
    what: describe(event),
    ms: event.ms,
  }));
}

/**
 * The timeline as a text table (the run's line first), for the report's attachment and the output
 * directory.
 *
 * @example
 * writeFileSync('test-results/multiauth-timeline.txt', timelineText(events));
 */
export function timelineText(events: readonly RunEvent[]): string {
  const rows = timelineRows(events);
  const head = ['start', 'worker', 'user', 'what', 'took'];
  const cells = rows.map((row) => [`${row.start.toFixed(2)} s`, row.worker, row.user, row.what, `${row.ms} ms`]);
  const widths = head.map((title, i) => Math.max(title.length, ...cells.map((cell) => (cell[i] as string).length)));
  const line = (cell: string[]) => cell.map((text, i) => text.padEnd(widths[i] as number)).join('  ').trimEnd();
  return [summaryLine(runTotals(events)), '', line(head), ...cells.map(line), ...leftOut(events.length), ''].join('\n');
}

/**
 * The timeline as a self-contained HTML page: the run's line, a picture (inline SVG: a lane per
 * worker, a bar per sign-in, as long as it took) and the table. No script, no external asset.
 *
 * @example
 * writeFileSync('test-results/multiauth-timeline.html', timelineHtml(events));
 */
export function timelineHtml(events: readonly RunEvent[]): string {
  const rows = timelineRows(events);
  const sorted = [...events].sort((a, b) => a.at - b.at).slice(0, MAX_ROWS);
  const first = sorted[0]?.at ?? 0;
  const end = Math.max(1, ...sorted.map((event) => event.at + Math.max(event.ms, 1) - first));
  const workers = [...new Set(sorted.map((event) => event.worker))].sort();
  const label = 110;
  const width = 900;
  const lane = 28;
  const scale = (width - label - 10) / end;
  const height = 30 + workers.length * lane;
  const bars = sorted.map((event) => {
    const x = label + (event.at - first) * scale;
    const y = 20 + workers.indexOf(event.worker) * lane;
    const w = Math.max(2, event.ms * scale);
    const title = `${event.worker}: ${event.user} ${describe(event)}, ${event.ms} ms`;
    return `<g><title>${escape(title)}</title><rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${lane - 8}" fill="${COLOUR[event.kind]}"/>` +
      `<text x="${(x + 2).toFixed(1)}" y="${y + lane - 13}" font-size="10" fill="#000">${escape(event.user)}</text></g>`;
  });
  const lanes = workers.map((worker, i) => `<text x="4" y="${20 + i * lane + lane - 13}" font-size="11">${escape(worker)}</text>`);
  const legend = (Object.keys(WHAT) as RunEventKind[]).map((kind) => `<span style="color:${COLOUR[kind]}">&#9632;</span> ${WHAT[kind]}`).join(' &nbsp; ');
  const table = rows
    .map((row) => `<tr><td>${row.start.toFixed(2)} s</td><td>${escape(row.worker)}</td><td>${escape(row.user)}</td><td>${escape(row.what)}</td><td>${row.ms} ms</td></tr>`)
    .join('\n');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>multiauth sign-in timeline</title>
<style>body{font:13px sans-serif;margin:16px}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}</style></head>
<body>
<h1>multiauth sign-in timeline</h1>
<p>${escape(summaryLine(runTotals(events)))}</p>
<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="sign-in timeline">
<text x="${label}" y="12" font-size="10">0 s</text><text x="${width - 60}" y="12" font-size="10">${(end / 1000).toFixed(2)} s</text>
${lanes.join('\n')}
${bars.join('\n')}
</svg>
<p>${legend}</p>
<table><thead><tr><th>start</th><th>worker</th><th>user</th><th>what</th><th>took</th></tr></thead>
<tbody>
${table}
</tbody></table>
${leftOut(events.length).map((text) => `<p>${escape(text)}</p>`).join('')}
</body></html>
`;
}

function describe(event: RunEvent): string {
  if (event.kind === 'failed') return event.code ? `failed (${event.code})` : 'failed';
  return event.reason ? `${WHAT[event.kind]} (${event.reason})` : WHAT[event.kind];
}

function leftOut(count: number): string[] {
  return count > MAX_ROWS ? [`(${count - MAX_ROWS} more left out)`] : [];
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
