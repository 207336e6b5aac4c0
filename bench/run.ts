import { pathToFileURL } from 'node:url';
import { benchConfigLoad, benchConfigLoadLarge } from './config-load.js';
import { benchSignin } from './signin.js';
import { benchCurlParse } from './curl-parse.js';
import { benchWebdriver } from './webdriver.js';
import { benchSignInsPerRun, benchSuite } from './suite.js';
import { benchWorkerStart } from './worker-start.js';
import { benchShardSignIns } from './shards.js';
import { benchMatrix } from './matrix.js';
import { benchReplay } from './replay.js';
import { benchCheckParallel, benchContention } from './scale.js';
import { benchVsSetupProject } from './vs-setup-project.js';
import { benchVsNoAuth } from './vs-no-auth.js';
import { benchMailArrival } from './mail.js';
import type { BenchResult } from './stats.js';

/** One row of `npm run bench`. */
export interface BenchRow {
  name: string;
  ours: number;
  peer: number;
  unit: string;
  ratio: number;
  aim: number;
  /** What the aim bounds: the ratio, or ours alone (an absolute count). */
  aimOn: 'ratio' | 'ours';
  /** Whether the ratio (or ours, see `aimOn`) is on the right side of the aim. */
  meets: boolean;
}


/** Each figure beside its peer, in one run; `higher` = a rate, where ours must be at least `aim` times the peer's. */
const BENCHES: Array<{ id: string; run: () => Promise<BenchResult | BenchResult[]>; better: 'lower' | 'higher' }> = [
  { id: 'config-load', run: benchConfigLoad, better: 'lower' },
  { id: 'config-load-10k', run: benchConfigLoadLarge, better: 'lower' },
  { id: 'signin', run: benchSignin, better: 'lower' },
  { id: 'curl-parse', run: benchCurlParse, better: 'higher' },
  { id: 'webdriver', run: benchWebdriver, better: 'lower' },
  { id: 'suite', run: benchSuite, better: 'lower' },
  { id: 'signins-4-workers', run: () => benchSignInsPerRun(4), better: 'lower' },
  { id: 'worker-start', run: benchWorkerStart, better: 'lower' },
  { id: 'signins-4-shards', run: benchShardSignIns, better: 'lower' },
  { id: 'matrix', run: benchMatrix, better: 'lower' },
  { id: 'access-replay', run: benchReplay, better: 'lower' },
  { id: 'scale-check-parallel', run: benchCheckParallel, better: 'higher' },
  { id: 'scale-contention', run: benchContention, better: 'lower' },
  { id: 'vs-setup-project', run: () => benchVsSetupProject(), better: 'lower' },
  { id: 'vs-no-auth', run: () => benchVsNoAuth(), better: 'lower' },
  { id: 'mail-arrival', run: benchMailArrival, better: 'lower' },
];

function row(figure: BenchResult, better: 'lower' | 'higher'): BenchRow {
  const ratio = Number(figure.ratio.toFixed(3));
  const aimOn = figure.aimOn ?? 'ratio';
  const bounded = aimOn === 'ours' ? figure.ours : ratio;
  return {
    name: figure.name,
    ours: Number(figure.ours.toFixed(2)),
    peer: Number(figure.peer.toFixed(2)),
    unit: figure.unit,
    ratio,
    aim: figure.aim,
    aimOn,
    meets: better === 'higher' ? bounded >= figure.aim : bounded <= figure.aim,
  };
}

function table(rows: BenchRow[]): string {
  const head = ['figure', 'ours', 'peer', 'unit', 'ratio', 'aim', 'meets'];
  const cells = rows.map((r) => [r.name, String(r.ours), String(r.peer), r.unit, String(r.ratio), r.aimOn === 'ours' ? `ours ${r.aim}` : String(r.aim), r.meets ? 'yes' : 'NO']);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => `| ${c.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line)].join('\n');
}

/**
 * `npm run bench`: every figure the issues set, each beside its peer in the same run, as a table
 * (`--json`: a JSON array of `{name, ours, peer, unit, ratio, aim, aimOn, meets}`; `aimOn: 'ours'` when the aim
 * bounds our figure alone, an absolute count). `--only <text>` runs only the benches whose id contains the
 * text: config-load, config-load-10k, signin, curl-parse, webdriver, suite, signins-4-workers, worker-start,
 * signins-4-shards, matrix, access-replay, scale-check-parallel, scale-contention (`--only scale-` runs both scale rows),
 * vs-setup-project, vs-no-auth (`--only no-auth`), mail-arrival.
 *
 * @example
 * const rows = await runBenches(); // [{ name: 'config-load', ratio: 1.4, aim: 3, meets: true, ... }, ...]
 */
export async function runBenches(only?: string): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const bench of BENCHES) {
    if (only && !bench.id.includes(only)) continue;
    const figures = await bench.run();
    for (const figure of Array.isArray(figures) ? figures : [figures]) rows.push(row(figure, bench.better));
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--only');
  const rows = await runBenches(at >= 0 ? args[at + 1] : undefined);
  process.stdout.write(args.includes('--json') ? `${JSON.stringify(rows, null, 2)}\n` : `${table(rows)}\n`);
}
