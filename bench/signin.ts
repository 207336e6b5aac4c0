import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { request } from 'undici';
import type { Plan } from '../src/compile/plan.js';
import { round, type BenchResult, cpuMs } from './stats.js';
import { startDemoProcess } from './demo.js';


const USERS = 200;
/**
 * Unmeasured rounds of both sides first: connection pools, the demo's own warm-up, and above all
 * V8's optimising compiler, which keeps compiling (on threads whose CPU `process.cpuUsage` counts)
 * for the first dozen rounds of our sign-in: a short warm-up measures compilation, not sign-ins.
 */
const WARMUP_ROUNDS = 20;
/** Sign-ins per measured chunk: short enough that a burst of load from elsewhere falls on few of them. */
const CHUNK = 25;
/** Measured chunks per side: 40 runs of the 200 users. */
const CHUNKS = 320;
const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Signs 200 users in through the `http` preset against the demo server (in a child process, so
 * only the client's work is measured), and sends the same 200 token requests with plain undici
 * `request` (parse the JSON, take the token). Reports the CPU time (`process.cpuUsage`, user +
 * system) of each per 200 sign-ins and their ratio: what templating, merging, extraction,
 * injection, cookies and redaction cost over the bare HTTP exchange. Aim: at most 1.3.
 *
 * The sides take turns in chunks of 25 sign-ins, in random order, 8,000 sign-ins each: on a shared
 * machine the CPU cost of the same work drifts by a third within seconds, and only fine
 * interleaving puts the same drift on both sides. Each run of the 200 users has its own redactor,
 * as each run of a suite has.
 *
 * @example
 * const { ratio } = await benchSignin(); // e.g. 1.2
 */
export async function benchSignin(): Promise<BenchResult> {
  const { code, source } = await implementation();
  const { authenticate, Redactor, closeDispatchers } = code;
  const demo = await startDemoProcess();
  try {
    const plan = planFor(demo.url, code);
    const names = plan.users.map((user) => user.name);
    let redactor = new Redactor();
    const ours = async (first: number, count: number) => {
      for (let i = first; i < first + count; i++) {
        if (i % USERS === 0) redactor = new Redactor();
        await authenticate(plan, names[i % USERS] as string, { redactor });
      }
    };
    const peer = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const response = await request(`${demo.url}/auth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ttl: 600, username: 'alice', password: 'alice-password' }),
        });
        const json = (await response.body.json()) as { data: { auth: { access_token: string } } };
        if (response.statusCode !== 200 || !json.data.auth.access_token) throw new Error('peer sign-in failed');
      }
    };
    for (let i = 0; i < WARMUP_ROUNDS; i++) {
      await ours(0, USERS);
      await peer(USERS);
    }
    let oursMs = 0;
    let peerMs = 0;
    for (let chunk = 0; chunk < CHUNKS; chunk++) {
      const first = (chunk * CHUNK) % USERS;
      if (Math.random() < 0.5) {
        oursMs += await cpuMs(() => ours(first, CHUNK));
        peerMs += await cpuMs(() => peer(CHUNK));
      } else {
        peerMs += await cpuMs(() => peer(CHUNK));
        oursMs += await cpuMs(() => ours(first, CHUNK));
      }
    }
    const runs = (CHUNKS * CHUNK) / USERS;
    return {
      name: `sign in ${USERS} users (http preset, ${source}) vs plain undici, ${runs} runs in interleaved chunks`,
      ours: round(oursMs / runs),
      peer: round(peerMs / runs),
      unit: 'ms CPU',
      ratio: round(oursMs / peerMs),
      aim: 1.3,
    };
  } finally {
    await closeDispatchers();
    await demo.stop();
  }
}

/** 200 preset users, each signing in as alice through its own merged body (the demo knows three users). */
function planFor(url: string, code: Implementation): Plan {
  const users = Array.from({ length: USERS }, (_, i) => `      - { username: user-${i}, body: { username: alice, password: alice-password } }`);
  const yaml = `
presets:
  - type: http
    request:
      url: ${url}/auth/token
      method: POST
      body: { ttl: 600 }
    extractions:
      - { name: access_token, location: body, key: data.auth.access_token }
      - { name: expires_in, location: body, key: data.auth.expires_in }
    injections:
      - { location: header, key: Authorization, prefix: Bearer, variable: access_token }
    users:
${users.join('\n')}
`;
  const dir = mkdtempSync(join(tmpdir(), 'multiauth-bench-'));
  try {
    writeFileSync(join(dir, 'multiauth.yaml'), yaml);
    return code.compile(code.loadConfig(join(dir, 'multiauth.yaml'), { env: {} }).config);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The package's code under test: what is measured. */
interface Implementation {
  authenticate: typeof import('../src/runtime/engine/authenticate.js').authenticate;
  closeDispatchers: typeof import('../src/runtime/http/dispatcher.js').closeDispatchers;
  Redactor: typeof import('../src/core/redactor.js').Redactor;
  compile: typeof import('../src/compile/index.js').compile;
  loadConfig: typeof import('../src/config/index.js').loadConfig;
}

/**
 * The compiled package (`dist/`, what users run) when it is at least as new as every source file;
 * else the sources through tsx, whose transform adds a little to every function of ours (not to
 * undici's), so the ratio is then slightly pessimistic.
 */
async function implementation(): Promise<{ code: Implementation; source: 'dist' | 'src via tsx' }> {
  const modules = ['runtime/engine/authenticate.cjs', 'runtime/http/dispatcher.cjs', 'core/redactor.cjs', 'compile/index.cjs', 'config/index.cjs'];
  const dist = modules.map((m) => join(root, 'dist', m));
  const fresh = dist.every(existsSync) && Math.min(...dist.map((f) => statSync(f).mtimeMs)) >= newestSource(join(root, 'src'));
  const base = fresh ? join(root, 'dist') : join(root, 'src');
  const [auth, dispatcher, redactor, compiler, config] = await Promise.all(modules.map((m) => import(pathToFileURL(join(base, m)).href)));
  return {
    code: {
      authenticate: auth.authenticate,
      closeDispatchers: dispatcher.closeDispatchers,
      Redactor: redactor.Redactor,
      compile: compiler.compile,
      loadConfig: config.loadConfig,
    },
    source: fresh ? 'dist' : 'src via tsx',
  };
}

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}



if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await benchSignin();
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
