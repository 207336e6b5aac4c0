import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startDemoServer } from '../fixtures/demo-server/index.js';
import { median, type BenchResult } from './stats.js';

const TESTS = 200;
const USERS = ['alice', 'bob', 'carol', 'dave'];
/** The suite's users (the sharded bench runs the same suite). */
export const SUITE_USERS: readonly string[] = USERS;
const ROUNDS = 5;
const root = fileURLToPath(new URL('..', import.meta.url));
/** Where the benches write their projects. */
export const benchRoot = join(root, '.tmp-bench');
const playwrightCli = join(root, 'node_modules', '@playwright', 'test', 'cli.js');

const CONFIG = `
presets:
  - type: http
    request:
      url: \${DEMO_URL}/auth/token
      method: POST
      body: { username: "{{username}}", password: "{{password}}" }
    extractions:
      - { name: token, location: body, key: data.auth.access_token }
    injections:
      - { location: header, key: Authorization, prefix: Bearer, variable: token }
    users:
${USERS.map((u) => `      - { username: ${u}, password: ${u}-password }`).join('\n')}
`;

/** The suite with playwright-multiauth: each file runs as one user through `authedRequest`. */
export function oursSpec(user: string, count: number): string {
  return `import { test, expect } from 'playwright-multiauth';
test.use({ authUser: '${user}' });
for (let i = 0; i < ${count}; i++) test('whoami ' + i, async ({ authedRequest }) => {
  expect((await (await authedRequest.get('/whoami')).json()).user).toBe('${user}');
});
`;
}

/** The same suite by hand: a token fetched once per worker, set in `extraHTTPHeaders`. */
function peerSpec(user: string, count: number): string {
  return `import { test as base, expect } from '@playwright/test';
const test = base.extend<{}, { token: string }>({
  token: [async ({ playwright }, use) => {
    const api = await playwright.request.newContext();
    const res = await api.post(process.env.DEMO_URL + '/auth/token', { data: { username: '${user}', password: '${user}-password' } });
    await use((await res.json()).data.auth.access_token);
    await api.dispose();
  }, { scope: 'worker' }],
});
test.use({ extraHTTPHeaders: {} });
test.beforeEach(async ({ token }, testInfo) => void testInfo);
for (let i = 0; i < ${count}; i++) test('whoami ' + i, async ({ playwright, token }) => {
  const request = await playwright.request.newContext({ baseURL: process.env.DEMO_URL, extraHTTPHeaders: { Authorization: 'Bearer ' + token } });
  expect((await (await request.get('/whoami')).json()).user).toBe('${user}');
  await request.dispose();
});
`;
}

const PW_CONFIG = `import { defineConfig } from '@playwright/test';
export default defineConfig({ workers: Number(process.env.BENCH_WORKERS ?? 2), reporter: 'dot', use: { baseURL: process.env.DEMO_URL } });
`;

/**
 * Writes the suite's Playwright project into `dir` (emptied first): config, `multiauth.yaml`, one
 * spec file per user with `tests` tests in all.
 *
 * @example
 * writeProject(join(benchRoot, 'suite-ours'), oursSpec);
 */
export function writeProject(dir: string, spec: (user: string, count: number) => string, tests = TESTS): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'playwright.config.ts'), PW_CONFIG);
  writeFileSync(join(dir, 'multiauth.yaml'), CONFIG);
  for (const user of USERS) writeFileSync(join(dir, `${user}.spec.ts`), spec(user, tests / USERS.length));
}

/**
 * Runs `playwright test` in `dir` with `env` added; resolves to the wall time in ms.
 *
 * @throws Error with the run's output when it fails.
 * @example
 * await runSuite(dir, { DEMO_URL: demo.url });
 */
export async function runSuite(dir: string, env: Record<string, string>): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [playwrightCli, 'test'], { cwd: dir, env: { ...process.env, ...env, CI: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const code = await new Promise<number | null>((r) => child.on('close', r));
  if (code !== 0) throw new Error(`suite in ${dir} failed:\n${output}`);
  return performance.now() - started;
}

/**
 * A 200-test API suite (4 users, 2 workers) with `authedRequest`, beside the same suite written by
 * hand with Playwright's plain `request` and the token set in `extraHTTPHeaders`: wall time of whole
 * `playwright test` runs, interleaved, median of {@link ROUNDS}. Also counts our sign-ins per run
 * (aim: one per user, whatever the number of tests and workers). Sessions are not reused across runs
 * here (MULTIAUTH_CACHE=off), so every run pays for its sign-ins as the peer does.
 *
 * @example
 * const [time, signIns] = await benchSuite();
 */
export async function benchSuite(): Promise<BenchResult[]> {
  const demo = await startDemoServer();
  const base = benchRoot;
  const oursDir = join(base, 'suite-ours');
  const peerDir = join(base, 'suite-peer');
  writeProject(oursDir, oursSpec);
  writeProject(peerDir, peerSpec);
  const env = { DEMO_URL: demo.url, MULTIAUTH_CACHE: 'off' };
  try {
    await runSuite(oursDir, env);
    await runSuite(peerDir, env);
    const ours: number[] = [];
    const peer: number[] = [];
    const signIns: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const before = Object.values(demo.counters.signIns).reduce((a, b) => a + b, 0);
      ours.push(await runSuite(oursDir, env));
      signIns.push(Object.values(demo.counters.signIns).reduce((a, b) => a + b, 0) - before);
      peer.push(await runSuite(peerDir, env));
    }
    const o = median(ours);
    const p = median(peer);
    return [
      { name: `${TESTS}-test suite, authedRequest vs plain request (wall)`, ours: o, peer: p, unit: 'ms', ratio: o / p, aim: 1.05 },
      { name: `sign-ins per run, ${USERS.length} users, 2 workers`, ours: median(signIns), peer: USERS.length, unit: 'sign-ins', ratio: median(signIns) / USERS.length, aim: 1 },
    ];
  } finally {
    await demo.stop();
  }
}

/**
 * Sign-ins in one run of the 200-test suite with `workers` workers and 4 users: the aim is one per
 * user, however many workers race for them.
 *
 * @example
 * const { ours } = await benchSignInsPerRun(4); // 4
 */
export async function benchSignInsPerRun(workers: number): Promise<BenchResult> {
  const demo = await startDemoServer();
  const dir = join(benchRoot, `suite-signins-${workers}`);
  writeProject(dir, oursSpec);
  try {
    await runSuite(dir, { DEMO_URL: demo.url, MULTIAUTH_CACHE: 'off', BENCH_WORKERS: String(workers) });
    const count = Object.values(demo.counters.signIns).reduce((a, b) => a + b, 0);
    return { name: `sign-ins per run, ${USERS.length} users, ${workers} workers`, ours: count, peer: USERS.length, unit: 'sign-ins', ratio: count / USERS.length, aim: 1 };
  } finally {
    await demo.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await benchSuite()) console.log(`${r.name}: ours ${r.ours.toFixed(0)} ${r.unit}, peer ${r.peer.toFixed(0)} ${r.unit}, ratio ${r.ratio.toFixed(3)} (aim ${r.aim})`);
}
