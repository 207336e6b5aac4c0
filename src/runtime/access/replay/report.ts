import type { SkippedCounts } from './selection.js';
import { ANONYMOUS, findingText, pathOf, type ReplayVerdict } from './verdict.js';

/** One replayed request: the owner's answer and every replaying user's verdict (the JSON's `requests[]`). */
export interface ReplayRow {
  /** The user the test ran as. */
  owner: string;
  method: string;
  /** The first URL seen for this pattern, query values masked (the caller masks secrets too). */
  url: string;
  /** The method and URL pattern (`GET https://a.test/api/orders/{id}`): one row per pattern per run. */
  pattern: string;
  /** The owner's status, sent again just before the replays. */
  status?: number;
  replays: Record<string, { verdict: ReplayVerdict; status?: number }>;
  /** Users who got the owner's answer while `anonymous` was denied. */
  findings: string[];
}

/** The run's replay table (`multiauth-access-replay.json`). */
export interface ReplayReport {
  requests: ReplayRow[];
  /** (request, user) pairs flagged. */
  findings: number;
  skipped: SkippedCounts;
}

/**
 * The run's table from the rows every test reported: one row per owner, method and URL pattern (the
 * first seen), the rows with findings first, skipped counts added up.
 *
 * @example
 * const report = replayReport(rowsOfEveryTest, skippedOfEveryTest);
 */
export function replayReport(rows: readonly ReplayRow[], skipped: readonly SkippedCounts[]): ReplayReport {
  const byPattern = new Map<string, ReplayRow>();
  for (const row of rows) {
    const key = `${row.owner}\n${row.pattern}`;
    if (!byPattern.has(key)) byPattern.set(key, row);
  }
  const unique = [...byPattern.values()];
  const requests = [...unique.filter((row) => row.findings.length), ...unique.filter((row) => !row.findings.length)];
  const total: SkippedCounts = { unsafe: 0, out_of_scope: 0, assets: 0, over_limit: 0 };
  for (const counts of skipped) for (const key of Object.keys(total) as Array<keyof SkippedCounts>) total[key] += Number(counts[key]) || 0;
  return { requests, findings: requests.reduce((sum, row) => sum + row.findings.length, 0), skipped: total };
}

/** The replaying users of a report, in the order first seen, `anonymous` last. */
export function replayUsers(report: Pick<ReplayReport, 'requests'>): string[] {
  const users = new Set<string>();
  for (const row of report.requests) for (const user of Object.keys(row.replays)) if (user !== ANONYMOUS) users.add(user);
  return [...users, ANONYMOUS];
}

/**
 * The line printed at the end of the run:
 * `multiauth: access replay: 14 requests replayed as bob, carol, anonymous; 4 findings`.
 *
 * @example
 * replaySummaryLine(report); // 'multiauth: access replay: 2 requests replayed as bob, anonymous; 1 finding'
 */
export function replaySummaryLine(report: ReplayReport): string {
  const n = report.requests.length;
  return `multiauth: access replay: ${n} request${n === 1 ? '' : 's'} replayed as ${replayUsers(report).join(', ')}; ${report.findings} finding${report.findings === 1 ? '' : 's'}`;
}

/**
 * The report as Markdown: the findings as sentences, then a table (requests x users, verdicts and
 * statuses; a finding's cell in bold), then what was skipped.
 *
 * @example
 * replayMarkdown(report); // '# Access replay\n\n- bob gets alice's answer to GET /api/orders/17 ...'
 */
export function replayMarkdown(report: ReplayReport): string {
  const escape = (text: string) => text.replace(/[\\|*_`<>[\]]/g, (c) => `\\${c}`).replace(/\s+/g, ' ');
  const users = replayUsers(report);
  const line = (cells: string[]) => `| ${cells.join(' | ')} |\n`;
  const findings = report.requests.flatMap((row) => row.findings.map((user) => `- ${escape(findingText(user, row.owner, row.method, row.url))}\n`));
  const rows = report.requests.map((row) => line([
    escape(`${row.method} ${pathOf(row.url)}`),
    escape(row.owner) + (row.status === undefined ? '' : ` ${row.status}`),
    ...users.map((user) => {
      const cell = Object.hasOwn(row.replays, user) ? row.replays[user] : undefined;
      if (!cell) return '-';
      const text = `${cell.verdict}${cell.status === undefined ? '' : ` ${cell.status}`}`;
      return row.findings.includes(user) ? `**${text}**` : text;
    }),
  ]));
  const { skipped } = report;
  return '# Access replay\n\n'
    + `${replaySummaryLine(report).replace(/^multiauth: access replay: /, '')}.\n\n`
    + (findings.length ? `${findings.join('')}\n` : '')
    + line(['request', 'owner', ...users.map(escape)]) + line(['---', '---', ...users.map(() => '---')]) + rows.join('')
    + `\nNot replayed: ${skipped.unsafe} unsafe, ${skipped.out_of_scope} out of scope, ${skipped.assets} assets, ${skipped.over_limit} over the bound.\n`;
}
