import { ANONYMOUS, SAFE_METHODS } from '../../config/index.js';
import type { ReplayRow } from '../../runtime/index.js';

/** An expectation as `access.expect` writes it. */
export type Expectation = 'allow' | 'deny' | number;

/** One request the block declares, from one row of the replay. */
export interface BlockRequest {
  name: string;
  method: string;
  url: string;
  unsafe: boolean;
  /** Why a person must look at it (its URL lost its query values to masking). */
  review?: string;
}

/** One cell of the block's `expect`: a user's expectation of a request, and why to review it. */
export interface BlockCell {
  request: string;
  expect: Expectation;
  review?: string;
}

/** The `access` block drafted from a replay: requests in the report's order, then each user's cells. */
export interface AccessBlock {
  requests: BlockRequest[];
  /** User -> cells, owners first, `anonymous` last. */
  expect: Map<string, BlockCell[]>;
}

/**
 * The access matrix a replay observed (issue 38 item 4): a request per row of the report (named
 * `METHOD /path/{id}` after its pattern, its URL the first one seen), the observed verdicts as
 * expectations (`same` and `different`: allow; `denied`: deny; an error: its status), except each
 * finding, written `deny` with a review note saying who got whose answer, so that the declared
 * matrix fails on it until the application is fixed or the line accepted. Rows already declared
 * (same method and URL) are left out; names taken are not reused.
 *
 * @example
 * const block = replayAccessBlock(report.requests, { names: new Set(), declared: new Set() });
 * block.expect.get('bob'); // [{ request: 'GET /api/orders/{id}', expect: 'deny', review: "bob got alice's answer to GET /api/orders/1001 (anonymous denied)" }]
 */
export function replayAccessBlock(rows: readonly ReplayRow[], taken: { names: ReadonlySet<string>; declared: ReadonlySet<string> }, pathOf: (url: string) => string): AccessBlock {
  const names = new Set(taken.names);
  const requests: BlockRequest[] = [];
  const cells = new Map<string, BlockCell[]>();
  const add = (user: string, cell: BlockCell) => {
    if (!cells.has(user)) cells.set(user, []);
    cells.get(user)!.push(cell);
  };
  for (const row of rows) {
    if (taken.declared.has(`${row.method} ${row.url}`)) continue;
    const name = uniqueName(`${row.method} ${patternPath(row)}`, names);
    const masked = row.url.includes('=…');
    requests.push({
      name, method: row.method, url: row.url, unsafe: !SAFE_METHODS.has(row.method),
      ...(masked ? { review: 'the report masked the query values (…): write them in' } : {}),
    });
    if (row.status !== undefined) add(row.owner, { request: name, expect: row.status < 400 ? 'allow' : row.status });
    for (const [user, cell] of Object.entries(row.replays)) {
      const shown = `${row.method} ${pathOf(row.url)}`;
      if (row.findings.includes(user)) {
        add(user, { request: name, expect: 'deny', review: `${user} got ${row.owner}'s answer to ${shown} (anonymous denied)` });
      } else if (cell.verdict === 'same' || cell.verdict === 'different') {
        add(user, { request: name, expect: 'allow' });
      } else if (cell.verdict === 'denied') {
        add(user, { request: name, expect: 'deny' });
      } else {
        add(user, cell.status === undefined
          ? { request: name, expect: 'deny', review: `${user} got no answer to ${shown} in the replay` }
          : { request: name, expect: cell.status });
      }
    }
  }
  const users = [...cells.keys()];
  const ordered = [...users.filter((user) => user !== ANONYMOUS), ...users.filter((user) => user === ANONYMOUS)];
  return { requests, expect: new Map(ordered.map((user) => [user, cells.get(user)!])) };
}

/** The row's pattern without its method and origin (`/api/orders/{id}?page`), as the name of its request. */
function patternPath(row: ReplayRow): string {
  const rest = row.pattern.slice(row.pattern.indexOf(' ') + 1);
  const origin = URL.parse(row.url)?.origin;
  return origin !== undefined && rest.startsWith(origin) ? rest.slice(origin.length) || '/' : rest;
}

/** `name`, or `name (2)`, `name (3)`... the first not taken; taken then. */
function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = `${name} (${n})`;
  taken.add(candidate);
  return candidate;
}
