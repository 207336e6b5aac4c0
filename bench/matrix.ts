import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { request } from 'undici';
import { round, type BenchResult, cpuMs } from './stats.js';
import { startDemoProcess } from './demo.js';

const USERS = 20;
const REQUESTS = 100;
/** As `multiauth matrix` sends by default, and the peer alike. */
const PARALLEL = 8;
/** Unmeasured rounds of both sides first: connection pools and V8's optimising compiler (see signin.ts). */
const WARMUP_ROUNDS = 3;
/** Measured rounds per side, taking turns in random order so that the machine's drift falls on both. */
const ROUNDS = 10;
/** Demo users the bench users sign in as (all may read the published post). */
const DEMO = [
  { username: 'alice', password: 'alice-password' },
  { username: 'bob', password: 'bob-password' },
  { username: 'carol', password: 'carol-password' },
];
const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The access matrix of 20 users × 100 requests against the demo server (in a child process, so
 * only the client's work is measured), run by `runAccessMatrix` as `multiauth matrix` runs it
 * (one sign-in per user, 8 requests at once, every answer classified and compared), beside the
 * same 20 token sign-ins and 2,000 GETs sent with plain undici `request` and an `Authorization`
 * header, 8 at once. Reports the CPU time (user + system) of each per matrix and their ratio: what
 * templating, applying sessions, classification and the table's bookkeeping cost over the bare
 * HTTP exchanges. Aim: at most 1.3. Measures the compiled package (`dist/`: `npm run bench` builds it).
 *
 * @example
 * const { ratio } = await benchMatrix(); // e.g. 1.1
 */
export async function benchMatrix(): Promise<BenchResult> {
  const dist = join(root, 'dist');
  if (!existsSync(join(dist, 'sessions', 'index.cjs'))) throw new Error('bench/matrix.ts measures dist/: run npm run build first');
  const sessions = (await import(pathToFileURL(join(dist, 'sessions', 'index.cjs')).href)) as typeof import('../src/sessions/index.js');
  const runtime = (await import(pathToFileURL(join(dist, 'runtime', 'index.cjs')).href)) as typeof import('../src/runtime/index.js');
  const demo = await startDemoProcess();
  const dir = mkdtempSync(join(tmpdir(), 'multiauth-bench-matrix-'));
  try {
    writeFileSync(join(dir, 'multiauth.yaml'), configFor(demo.url));
    const opened = await sessions.openConfig({ file: 'multiauth.yaml', baseDir: dir, env: {}, notFoundHint: '' });
    const ours = async () => {
      const observed = await sessions.runAccessMatrix(opened, { parallel: PARALLEL });
      const unexpected = observed.users.filter((user) => Object.values(observed.cells[user] ?? {}).some((cell) => cell.unexpected));
      if (unexpected.length > 0 || observed.users.length !== USERS) throw new Error(`bench matrix: unexpected cells for ${unexpected.join(', ')}`);
    };
    const peer = async () => {
      const tokens = await inParallel(USERS, async (i) => {
        const response = await request(`${demo.url}/auth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(DEMO[i % DEMO.length]),
        });
        const json = (await response.body.json()) as { data: { auth: { access_token: string } } };
        return json.data.auth.access_token;
      });
      await inParallel(USERS * REQUESTS, async (i) => {
        const response = await request(`${demo.url}/api/posts/1?n=${i % REQUESTS}`, { headers: { authorization: `Bearer ${tokens[i % USERS]}` } });
        await response.body.dump();
        if (response.statusCode !== 200) throw new Error(`peer request answered ${response.statusCode}`);
      });
    };
    for (let i = 0; i < WARMUP_ROUNDS; i++) {
      await ours();
      await peer();
    }
    let oursMs = 0;
    let peerMs = 0;
    for (let i = 0; i < ROUNDS; i++) {
      if (Math.random() < 0.5) {
        oursMs += await cpuMs(ours);
        peerMs += await cpuMs(peer);
      } else {
        peerMs += await cpuMs(peer);
        oursMs += await cpuMs(ours);
      }
    }
    return {
      name: `access matrix ${USERS} users x ${REQUESTS} requests (multiauth matrix's runner, dist) vs plain undici with a token header, ${ROUNDS} runs`,
      ours: round(oursMs / ROUNDS),
      peer: round(peerMs / ROUNDS),
      unit: 'ms CPU',
      ratio: round(oursMs / peerMs),
      aim: 1.3,
    };
  } finally {
    await runtime.closeDispatchers();
    await demo.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** 20 users signing in for a token as the demo's users, every one allowed to read the 100 requests. */
function configFor(url: string): string {
  const users = Array.from({ length: USERS }, (_, i) => {
    const demo = DEMO[i % DEMO.length]!;
    return `  - { name: user-${i}, procedure: token, credentials: { username: ${demo.username}, password: ${demo.password} } }`;
  });
  const requests = Array.from({ length: REQUESTS }, (_, i) => `    - { name: read post ${i}, url: "${url}/api/posts/1?n=${i}" }`);
  const expect = Array.from({ length: USERS }, (_, i) => `    user-${i}: allow`);
  return `validation: false
procedures:
  - name: token
    operations:
      - tech: http
        parameters:
          url: ${url}/auth/token
          method: POST
          body: { username: "{{username}}", password: "{{password}}" }
        extractions:
          - { name: access_token, location: body, key: data.auth.access_token }
    injections:
      - { location: header, key: Authorization, prefix: Bearer, variable: access_token }
users:
${users.join('\n')}
access:
  requests:
${requests.join('\n')}
  expect:
${expect.join('\n')}
`;
}

/** `count` calls of `work`, at most {@link PARALLEL} at a time, results in order. */
async function inParallel<T>(count: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await work(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, count) }, worker));
  return results;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await benchMatrix();
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
