import { pathToFileURL } from 'node:url';
import { benchConfigLoad } from './config-load.js';
import { benchSignin } from './signin.js';
import { benchCurlParse } from './curl-parse.js';
import { benchWebdriver } from './webdriver.js';
import { benchSignInsPerRun, benchSuite } from './suite.js';

/** One row of `npm run bench`. */
export interface BenchRow {
  name: string;
  ours: number;
  peer: number;
  unit: string;
  ratio: number;
  aim: number;
  /** Whether the ratio is on the right side of the aim. */
  meets: boolean;
}

interface Figure {
  name: string;
  ours: number;
  peer: number;
  unit: string;
  ratio: number;
  aim: number;
}

/** Each figure beside its peer, in one run; `higher` = a rate, where ours must be at least `aim` times the peer's. */
const BENCHES: Array<{ run: () => Promise<Figure | Figure[]>; better: 'lower' | 'higher' }> = [
  { run: benchConfigLoad, better: 'lower' },
  { run: benchSignin, better: 'lower' },
  { run: benchCurlParse, better: 'higher' },
  { run: benchWebdriver, better: 'lower' },
  { run: benchSuite, better: 'lower' },
  { run: () => benchSignInsPerRun(4), better: 'lower' },
];

function row(figure: Figure, better: 'lower' | 'higher'): BenchRow {
  const ratio = Number(figure.ratio.toFixed(3));
  return {
    name: figure.name,
    ours: Number(figure.ours.toFixed(2)),
    peer: Number(figure.peer.toFixed(2)),
    unit: figure.unit,
    ratio,
    aim: figure.aim,
    meets: better === 'higher' ? ratio >= figure.aim : ratio <= figure.aim,
  };
}

function table(rows: BenchRow[]): string {
  const head = ['figure', 'ours', 'peer', 'unit', 'ratio', 'aim', 'meets'];
  const cells = rows.map((r) => [r.name, String(r.ours), String(r.peer), r.unit, String(r.ratio), String(r.aim), r.meets ? 'yes' : 'NO']);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => `| ${c.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line)].join('\n');
}

/**
 * `npm run bench`: every figure the issues set, each beside its peer in the same run, as a table
 * (`--json`: a JSON array of `{name, ours, peer, unit, ratio, aim, meets}`). `--only <text>` runs the
 * figures whose name contains the text.
 *
 * @example
 * const rows = await runBenches(); // [{ name: 'config-load', ratio: 1.4, aim: 3, meets: true, ... }, ...]
 */
export async function runBenches(only?: string): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const bench of BENCHES) {
    const figures = await bench.run();
    for (const figure of Array.isArray(figures) ? figures : [figures]) {
      if (!only || figure.name.includes(only)) rows.push(row(figure, bench.better));
    }
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--only');
  const rows = await runBenches(at >= 0 ? args[at + 1] : undefined);
  process.stdout.write(args.includes('--json') ? `${JSON.stringify(rows, null, 2)}\n` : `${table(rows)}\n`);
}
