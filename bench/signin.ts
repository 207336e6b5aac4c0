import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { request } from 'undici';
import type { Plan } from '../src/compile/plan.js';
import { median, round, type BenchResult } from './stats.js';


const USERS = 200;
/**
 * Unmeasured rounds of both sides first: connection pools, the demo's own warm-up, and above all
 * V8's optimising compiler, which keeps compiling (on threads whose CPU `process.cpuUsage` counts)
 * for the first dozen rounds of our sign-in: a short warm-up measures compilation, not sign-ins.
 */
const WARMUP_ROUNDS = 20;
const ROUNDS = 15;
const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Signs 200 users in through the `http` preset against the demo server (in a child process, so
 * only the client's work is measured), and sends the same 200 token requests with plain undici
 * `request` (parse the JSON, take the token). Reports the CPU time (`process.cpuUsage`, user +
 * system) of each and their ratio: what templating, merging, extraction, injection, cookies and
 * redaction cost over the bare HTTP exchange: the medians of interleaved rounds, and the median of
 * the rounds' ratios. Aim: at most 1.3.
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
    const ours = async (list: string[]) => {
      const redactor = new Redactor();
      for (const name of list) await authenticate(plan, name, { redactor });
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
      await ours(names);
      await peer(USERS);
    }
    // Interleaved rounds, the order alternating, so that load from other processes, GC debt and
    // JIT state fall on both sides alike; the median ignores a round that met a burst of load.
    const oursRounds: number[] = [];
    const peerRounds: number[] = [];
    const ratios: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      let oursCpu: number;
      let peerCpu: number;
      if (i % 2 === 0) {
        oursCpu = await cpuMs(() => ours(names));
        peerCpu = await cpuMs(() => peer(USERS));
      } else {
        peerCpu = await cpuMs(() => peer(USERS));
        oursCpu = await cpuMs(() => ours(names));
      }
      oursRounds.push(oursCpu);
      peerRounds.push(peerCpu);
      ratios.push(oursCpu / peerCpu);
    }
    return {
      name: `sign in ${USERS} users (http preset, ${source}) vs plain undici, median of ${ROUNDS} rounds`,
      ours: round(median(oursRounds)),
      peer: round(median(peerRounds)),
      unit: 'ms CPU',
      ratio: round(median(ratios)),
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
  authenticate: typeof import('../src/runtime/authenticate.js').authenticate;
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
  const modules = ['runtime/authenticate.js', 'runtime/http/dispatcher.js', 'core/redactor.js', 'compile/index.js', 'config/index.js'];
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

async function cpuMs(work: () => Promise<void>): Promise<number> {
  const start = process.cpuUsage();
  await work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}



/** The demo server in a child process: its CPU is not ours. */
async function startDemoProcess(): Promise<{ url: string; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(root, 'fixtures/demo-server/main.ts'), '--port', '0'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`demo server exited (${code}) before listening`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await benchSignin();
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
