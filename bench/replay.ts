import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startDemoServer } from '../fixtures/demo-server/index.js';
import { median, type BenchResult } from './stats.js';
import { benchRoot, oursSpec, runSuite, writeProject } from './suite.js';

/** The last commit before the access replay (issue 38): what the suite cost "today", before it. */
const BEFORE_REPLAY = 'c6d0b1c';
const ROUNDS = 3;
const root = join(benchRoot, '..');

/**
 * The package as it was before the replay, built once into `.tmp-bench/pre-replay` (its own
 * `dist/`, `node_modules` linked): a suite written under it imports that build by self-reference.
 */
function packageBeforeReplay(): string {
  const dir = join(benchRoot, 'pre-replay');
  if (existsSync(join(dir, 'dist', 'playwright', 'index.cjs'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git -C "${root}" archive ${BEFORE_REPLAY} | tar -x -C "${dir}"`]);
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: dir, stdio: 'inherit' });
  return dir;
}

/** The suite's project with `accessReplay` in the config's `use` (alice's and the others' tests replayed as bob). */
function withReplay(dir: string): void {
  writeFileSync(join(dir, 'playwright.config.ts'), `import { defineConfig } from '@playwright/test';
export default defineConfig({ workers: Number(process.env.BENCH_WORKERS ?? 2), reporter: 'dot', use: { baseURL: process.env.DEMO_URL, accessReplay: { as: ['bob'] } } as never });
`);
}

/**
 * The access replay's cost (issue 38, "Done when"): the 200-test suite of `bench/suite.ts` with
 * replay off (no `accessReplay`) beside the same suite on the package before the replay existed
 * (aim 1.02), and with `accessReplay: { as: ['bob'] }` beside replay off (the replay's time: each
 * user's one request pattern replayed once per run as bob and anonymous). Wall time of whole runs,
 * interleaved, median of {@link ROUNDS}.
 *
 * @example
 * const [off, on] = await benchReplay();
 */
export async function benchReplay(): Promise<BenchResult[]> {
  const before = packageBeforeReplay();
  const demo = await startDemoServer();
  const offDir = join(benchRoot, 'replay-off');
  const onDir = join(benchRoot, 'replay-on');
  const beforeDir = join(before, '.tmp-bench', 'suite-before-replay');
  writeProject(offDir, oursSpec);
  writeProject(onDir, oursSpec);
  withReplay(onDir);
  writeProject(beforeDir, oursSpec);
  const env = { DEMO_URL: demo.url, MULTIAUTH_CACHE: 'off' };
  try {
    for (const dir of [offDir, beforeDir, onDir]) await runSuite(dir, env);
    const off: number[] = [];
    const earlier: number[] = [];
    const on: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      off.push(await runSuite(offDir, env));
      earlier.push(await runSuite(beforeDir, env));
      on.push(await runSuite(onDir, env));
    }
    const [o, e, n] = [median(off), median(earlier), median(on)];
    return [
      { name: '200-test suite, accessReplay off vs the package before the replay (wall)', ours: o, peer: e, unit: 'ms', ratio: o / e, aim: 1.02 },
      { name: '200-test suite, accessReplay { as: [bob] } vs off (wall: the replay\'s time)', ours: n, peer: o, unit: 'ms', ratio: n / o, aim: 1.25 },
    ];
  } finally {
    await demo.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await benchReplay()) console.log(`${r.name}: ours ${r.ours.toFixed(0)} ${r.unit}, peer ${r.peer.toFixed(0)} ${r.unit}, ratio ${r.ratio.toFixed(3)} (aim ${r.aim})`);
}
