import { cellText, type AccessCell, type ObservedMatrix } from './matrix.js';

/** A column of the text table is cut to this many characters: a long request name must not push the rest off screen. */
const MAX_COLUMN = 40;

/**
 * The observed matrix as a plain-text table for a terminal: one row per request, one column per
 * user, each cell `allow 200` / `deny 403` / `unexpected allow 200` / `error 500`; then a count.
 *
 * @example
 * process.stdout.write(matrixText(observed));
 * // request            admin      editor                anonymous
 * // list users         allow 200  deny 403              deny 401
 */
export function matrixText(matrix: ObservedMatrix): string {
  const header = ['request', ...matrix.users].map(cut);
  const rows = matrix.requests.map((request) => [cut(request), ...matrix.users.map((user) => cellOf(matrix, user, request))]);
  const widths = header.map((title, index) => Math.max(title.length, ...rows.map((row) => (row[index] as string).length)));
  const line = (cells: string[]) => `${cells.map((cell, index) => cell.padEnd(widths[index] as number)).join('  ').trimEnd()}\n`;
  return line(header) + rows.map(line).join('') + summary(matrix);
}

/**
 * The observed matrix as a Markdown table (report attachments, CI summaries); unexpected cells in bold.
 *
 * @example
 * matrixMarkdown(observed); // '| request | admin | editor |\n|---|---|---|\n| list users | allow 200 | **unexpected allow 200** |\n...'
 */
export function matrixMarkdown(matrix: ObservedMatrix): string {
  const escape = (text: string) => text.replace(/[\\|*_`<>[\]]/g, (c) => `\\${c}`).replace(/\s+/g, ' ');
  const row = (cells: string[]) => `| ${cells.join(' | ')} |\n`;
  const body = matrix.requests.map((request) => row([escape(request), ...matrix.users.map((user) => {
    const cell = matrix.cells[user]?.[request];
    const text = escape(cellOf(matrix, user, request));
    return cell && (cell.unexpected || cell.outcome === 'error') ? `**${text}**` : text;
  })]));
  return row(['request', ...matrix.users.map(escape)]) + row(['---', ...matrix.users.map(() => '---')]) + body.join('') + `\n${summary(matrix)}`;
}

/**
 * The observed matrix as a standalone HTML page (a report attachment): one table, unexpected
 * cells marked, every name escaped.
 *
 * @example
 * await testInfo.attach('access matrix', { body: matrixHtml(observed), contentType: 'text/html' });
 */
export function matrixHtml(matrix: ObservedMatrix): string {
  const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const head = `<tr><th>request</th>${matrix.users.map((user) => `<th>${escape(user)}</th>`).join('')}</tr>`;
  const rows = matrix.requests.map((request) => `<tr><th>${escape(request)}</th>${matrix.users.map((user) => {
    const cell = matrix.cells[user]?.[request];
    const kind = !cell ? 'missing' : cell.unexpected ? 'unexpected' : cell.outcome;
    const title = cell ? ` title="expected ${escape(String(cell.expected))}${cell.why ? `: ${escape(cell.why)}` : ''}"` : '';
    return `<td class="${kind}"${title}>${escape(cellOf(matrix, user, request))}</td>`;
  }).join('')}</tr>`);
  return '<!doctype html><html><head><meta charset="utf-8"><title>access matrix</title><style>' +
    'body{font-family:sans-serif}table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:4px 8px;text-align:left}' +
    '.allow{background:#e6f4ea}.deny{background:#f1f3f4}.error{background:#fff4e5}.unexpected{background:#fce8e6;font-weight:bold}' +
    `</style></head><body><table>${head}${rows.join('')}</table><p>${escape(summary(matrix).trim())}</p></body></html>\n`;
}

/**
 * Counts as one line: `12 cells: 10 as expected, 2 unexpected (1 unexpected allow)`.
 *
 * @example
 * summary(observed); // '6 cells: 6 as expected\n'
 */
export function summary(matrix: ObservedMatrix): string {
  const cells: AccessCell[] = matrix.users.flatMap((user) => matrix.requests.flatMap((request) => matrix.cells[user]?.[request] ?? []));
  const unexpected = cells.filter((cell) => cell.unexpected);
  const allows = unexpected.filter((cell) => cell.outcome === 'allow').length;
  const detail = unexpected.length ? `, ${unexpected.length} unexpected${allows ? ` (${allows} unexpected allow${allows === 1 ? '' : 's'})` : ''}` : '';
  return `${cells.length} cell${cells.length === 1 ? '' : 's'}: ${cells.length - unexpected.length} as expected${detail}\n`;
}

function cellOf(matrix: ObservedMatrix, user: string, request: string): string {
  const cell = matrix.cells[user]?.[request];
  return cell ? cellText(cell) : 'not run';
}

function cut(text: string): string {
  return text.length > MAX_COLUMN ? `${text.slice(0, MAX_COLUMN - 1)}…` : text;
}
