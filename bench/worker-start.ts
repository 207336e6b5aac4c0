import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startDemoProcess } from './demo.js';
import { median, round, type BenchResult } from './stats.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const PROBE = join(root, 'bench', 'worker-probe.mjs');
/** Measured starts per side, taken in turns. */
const ROUNDS = 15;

/**
 * What a Playwright worker pays for the package before its first test runs: a new Node process that
 * imports `@playwright/test` and the package (`dist/`, as users run it) and gets its user's session,
 * which an earlier worker of the run signed in and cached (workers 2..N of every run, and every worker
 * of a later run). Beside it, the same process importing `@playwright/test` alone. The figure is the
 * CPU time (user + system) of each whole process, median of {@link ROUNDS} starts a side, taken in
 * turns so that a loaded machine weighs on both. Aim: at most 1.25.
 *
 * @example
 * const { ratio } = await benchWorkerStart(); // e.g. 1.2
 */
export async function benchWorkerStart(): Promise<BenchResult> {
  const demo = await startDemoProcess();
  const dir = mkdtempSync(join(tmpdir(), 'multiauth-worker-start-'));
  try {
    writeFileSync(join(dir, 'multiauth.yaml'), config(demo.url));
    const dist = join(root, 'dist');
    // TEST_WORKER_INDEX: each probe is a worker of one run, the bench its runner (as Playwright sets it).
    const env = { ...process.env, MULTIAUTH_CACHE_DIR: join(dir, '.auth'), TEST_WORKER_INDEX: '1' };
    const probe = async (mode: 'peer' | 'first' | 'cached'): Promise<number> => {
      const { stdout } = await run(process.execPath, [PROBE, mode, dist, dir, 'alice'], { cwd: root, env });
      return (JSON.parse(stdout) as { cpuMs: number }).cpuMs;
    };
    await probe('first');
    await probe('cached');
    await probe('peer');
    const ours: number[] = [];
    const peer: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      if (i % 2) {
        ours.push(await probe('cached'));
        peer.push(await probe('peer'));
      } else {
        peer.push(await probe('peer'));
        ours.push(await probe('cached'));
      }
    }
    const o = median(ours);
    const p = median(peer);
    return { name: 'worker-start', ours: round(o), peer: round(p), unit: 'ms CPU', ratio: o / p, aim: 1.25 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await demo.stop();
  }
}

/** Users of several kinds, as a real suite has; alice signs in with a JSON token endpoint. */
function config(url: string): string {
  return `
presets:
  - type: basic
    users: [{ username: bob, password: bob-password }]
  - type: curl
    users:
      - username: dave
        curl: >-
          curl '${url}/auth/token' -H 'Content-Type: application/json'
          --data-raw '{"username":"dave","password":"dave-password"}'
    extractions: [{ name: token, location: body, key: data.auth.access_token }]
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: token }]
procedures:
  - name: token-login
    operations:
      - tech: http
        parameters:
          url: ${url}/auth/token
          method: POST
          body: { username: "{{username}}", password: "{{password}}" }
        extractions: [{ name: token, location: body, key: data.auth.access_token }]
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: token }]
users:
  - { name: alice, procedure: token-login, credentials: { username: alice, password: alice-password } }
`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.stdout.write(`${JSON.stringify(await benchWorkerStart())}\n`);
}
