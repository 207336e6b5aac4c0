import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startDemoServer, type DemoServer } from '../fixtures/demo-server/index.js';
import { median, round, type BenchResult } from './stats.js';
import { installedPackageRoot } from './installed-package.js';
import { treeCpu } from './process-tree-cpu.js';
import { ourSide, theirSide, type Side, type SuiteShape } from './vs-setup-project-files.js';

/** What a real identity provider costs per sign-in (a form, a redirect, a token exchange). */
export const SIGN_IN_DELAY_MS = 400;
/** Measured rounds (`BENCH_VS_ROUNDS`, default 5); each runs every side, in alternating order. */
export const ROUNDS = roundsFrom(process.env.BENCH_VS_ROUNDS);
const root = fileURLToPath(new URL('..', import.meta.url));
const playwrightCli = join(root, 'node_modules', '@playwright', 'test', 'cli.js');
/** A run that takes longer has hung (a sign-in that never answers, a browser that never starts). */
const RUN_TIMEOUT_MS = 600_000;

/** `BENCH_VS_ROUNDS`: 1 to 50, else 5. */
function roundsFrom(raw: string | undefined): number {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 && n <= 50 ? n : 5;
}

/** The suite of the headline figure: 8 users (6 API, 2 browser sign-ins), 10 API and 2 page tests each, 2 workers. */
export const HEADLINE: SuiteShape = { apiUsers: 6, browserUsers: 2, apiTests: 10, pageTests: 2, workers: 2 };

/** One `playwright test` run of a side, as the bench saw it. */
export interface RunFigures {
  /** From spawning `playwright test` to its exit (ms). */
  wallMs: number;
  /** From spawning it to the end of the first test of the suite (not a setup test) (ms). */
  firstResultMs: number;
  /** Sign-ins the demo server counted during the run. */
  signIns: number;
  /** CPU time (user + system) of the run's whole process tree: runner, workers, browsers (ms; see {@link treeCpu}). */
  cpuMs: number;
}

/**
 * Runs `playwright test` in `dir`; the reporter the side's config names writes when the first test
 * ended and how many passed. Resolves to the run's figures.
 *
 * @throws Error with the run's output when it fails, hangs, or did not run every test.
 * @example
 * const figures = await runOnce(side, demo);
 */
export async function runOnce(side: Side, demo: DemoServer, env: Record<string, string> = {}): Promise<RunFigures> {
  const out = join(side.dir, 'first-result.json');
  rmSync(out, { force: true });
  const before = signInsOf(demo);
  const started = Date.now();
  const tree = treeCpu([process.execPath, playwrightCli, 'test'], side.dir);
  const child = spawn(tree.command, tree.args, {
    cwd: side.dir,
    env: { ...process.env, ...env, DEMO_URL: demo.url, BENCH_FIRST_RESULT: out, CI: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so that a hung run is killed with its workers and browsers.
    detached: true,
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const timer = setTimeout(() => {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  }, RUN_TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  const wallMs = Date.now() - started;
  // Read (and its cgroup removed) whether the run passed or not.
  const cpuMs = await tree.cpuMs();
  if (code !== 0 || !existsSync(out)) throw new Error(`vs-setup-project: the ${side.name} suite failed (exit ${code}):\n${output}`);
  const seen = JSON.parse(readFileSync(out, 'utf8')) as { first: number; passed: number };
  if (seen.passed !== side.tests) throw new Error(`vs-setup-project: the ${side.name} suite passed ${seen.passed} tests, not ${side.tests}:\n${output}`);
  const figures = { wallMs, firstResultMs: seen.first - started, signIns: signInsOf(demo) - before, cpuMs };
  process.stderr.write(`vs-setup-project: ${side.name}: ${JSON.stringify(figures)} (CPU by ${tree.source}; load ${(loadavg()[0] ?? 0).toFixed(1)})\n`);
  return figures;
}

function signInsOf(demo: DemoServer): number {
  return Object.values(demo.counters.signIns).reduce((a, b) => a + b, 0);
}

/** Figures of every round of both sides, cold (nothing signed in) and warm (right after a cold run). */
interface Rounds {
  ours: { cold: RunFigures[]; warm: RunFigures[] };
  theirs: { cold: RunFigures[]; warm: RunFigures[] };
}

async function measure(shape: SuiteShape, rounds: number, demo: DemoServer): Promise<Rounds> {
  // Both sides outside the repository, the package installed as users get it.
  const base = installedPackageRoot(join(tmpdir(), 'multiauth-bench-vs'));
  const ours = ourSide(join(base, 'ours'), shape);
  const theirs = theirSide(join(base, 'theirs'), shape);
  const figures: Rounds = { ours: { cold: [], warm: [] }, theirs: { cold: [], warm: [] } };
  const both = [
    { side: ours, into: figures.ours },
    { side: theirs, into: figures.theirs },
  ];
  // One unmeasured round: the OS's file cache, Playwright's transpile cache of each project.
  for (const { side } of both) {
    side.clean();
    await runOnce(side, demo);
  }
  for (let round = 0; round < rounds; round++) {
    for (const { side, into } of round % 2 === 0 ? both : [...both].reverse()) {
      side.clean();
      into.cold.push(await runOnce(side, demo));
      into.warm.push(await runOnce(side, demo));
    }
  }
  return figures;
}

/** `ours / theirs` of the medians, and the row that prints them. */
function wallRow(name: string, ours: number[], theirs: number[], aim: number): BenchResult {
  const o = median(ours);
  const p = median(theirs);
  return { name, ours: round(o), peer: round(p), unit: 'ms', ratio: o / p, aim };
}

/**
 * The headline figure (issue 29): a role-matrix suite, 8 users (6 signing in at a token endpoint, 2
 * through the browser login form), 10 API tests and 2 page tests per user, 2 workers, against the
 * demo server with every sign-in taking {@link SIGN_IN_DELAY_MS} ms, written two ways in temp
 * projects: Playwright's documented pattern (a `setup` project with one setup test per user writing
 * `storageState` files, the Bearer token to a file beside it; one project per user with
 * `dependencies: ['setup']` and `use: { storageState }`, the token sent through `extraHTTPHeaders`),
 * and ours (`authProjects`, `authedRequest` and `page`). Each round runs each side cold (no session
 * files) and again at once (ours reuses its cache; the setup project signs everyone in again, as the
 * guide's pattern does), sides taking turns in alternating order; medians of {@link ROUNDS} rounds
 * (`BENCH_VS_ROUNDS`). Rows: wall time of a first and a second run, time from start to the first test
 * result of the first run, sign-ins of each run.
 *
 * @example
 * const rows = await benchVsSetupProject(); // [{ name: 'first run ...', ratio: 0.7, aim: 1 }, ...]
 */
export async function benchVsSetupProject(shape: SuiteShape = HEADLINE, rounds = ROUNDS): Promise<BenchResult[]> {
  const demo = await startDemoServer({ signInDelayMs: SIGN_IN_DELAY_MS });
  const load = loadavg()[0] ?? 0;
  try {
    const { ours, theirs } = await measure(shape, rounds, demo);
    const users = shape.apiUsers + shape.browserUsers;
    const suite = `${users} users (${shape.apiUsers} API, ${shape.browserUsers} browser sign-ins), ${users * (shape.apiTests + shape.pageTests)} tests, ${shape.workers} workers, sign-ins ${SIGN_IN_DELAY_MS} ms`;
    const of = (runs: RunFigures[], key: keyof RunFigures) => runs.map((r) => r[key]);
    const oursSecond = median(of(ours.warm, 'signIns'));
    const theirsSecond = median(of(theirs.warm, 'signIns'));
    return [
      wallRow(`first run, ${suite}: authProjects vs a setup project (median of ${rounds}, 1-min load ${load.toFixed(1)} at start)`, of(ours.cold, 'wallMs'), of(theirs.cold, 'wallMs'), 1.0),
      wallRow(`second run (ours from its cache; the setup project signs in again)`, of(ours.warm, 'wallMs'), of(theirs.warm, 'wallMs'), 0.8),
      wallRow(`time to the first test result, first run (setup tests not counted)`, of(ours.cold, 'firstResultMs'), of(theirs.cold, 'firstResultMs'), 0.6),
      {
        name: 'sign-ins, first run',
        ours: median(of(ours.cold, 'signIns')),
        peer: median(of(theirs.cold, 'signIns')),
        unit: 'sign-ins',
        ratio: median(of(ours.cold, 'signIns')) / median(of(theirs.cold, 'signIns')),
        aim: 1,
      },
      { name: 'sign-ins, second run', ours: oursSecond, peer: theirsSecond, unit: 'sign-ins', ratio: theirsSecond ? oursSecond / theirsSecond : 0, aim: 0, aimOn: 'ours' },
    ];
  } finally {
    await demo.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await benchVsSetupProject()) console.log(`${r.name}: ours ${r.ours} ${r.unit}, peer ${r.peer} ${r.unit}, ratio ${r.ratio.toFixed(3)} (aim ${r.aim})`);
}
