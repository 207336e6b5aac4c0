import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runCliAsync } from '../tests/support/cli.js';
import { runNodeChild } from '../tests/support/node-child.js';
import { startHttpServer, type RunningServer } from '../tests/support/servers/node-http.js';
import { round, type BenchResult } from './stats.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Users `multiauth check` signs in for the parallel row. */
const CHECK_USERS = 100;
/**
 * What each sign-in of the scale rows costs at the server: a fast identity provider's answer (a real
 * one takes hundreds of milliseconds; a form and a redirect more).
 */
const SIGNIN_DELAY_MS = 200;
/** Processes of the contention row, and the users each asks the store for. */
const WORKERS = 50;
const CONTENDED_USERS = 10;
/**
 * The bound of the contention row: 50 processes signing 10 users in through one store take at most
 * this many times as long as the same 50 processes reading the 10 sessions it left. Starting 50 Node
 * processes is most of either figure on 2 cores; the lock must not add as much again.
 */
const CONTENTION_AIM = 2;

/** A token endpoint that answers after {@link SIGNIN_DELAY_MS} and counts what it answered. */
interface TokenServer extends RunningServer {
  signIns(): number;
}

async function startTokenServer(): Promise<TokenServer> {
  let count = 0;
  const server = await startHttpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count++;
      setTimeout(() => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ access_token: randomBytes(24).toString('base64url'), token_type: 'Bearer', expires_in: 3600 }));
      }, SIGNIN_DELAY_MS);
    });
  });
  return Object.assign(server, { signIns: () => count });
}

/**
 * `multiauth check` of {@link CHECK_USERS} users whose sign-ins each take {@link SIGNIN_DELAY_MS}
 * at the server, with `--parallel 8` beside `--parallel 1`: the built command in a child, as users
 * run it, start-up included, wall time. Reported as sign-ins per second of the whole command; the
 * aim is at least 5 times the serial rate (8 at once can reach 7.7 for 100 users: 13 rounds).
 * Every run must sign every user in once, counted at the server.
 *
 * @example
 * const { ratio } = await benchCheckParallel(); // e.g. 6.5
 */
export async function benchCheckParallel(): Promise<BenchResult> {
  const tokens = await startTokenServer();
  const dir = mkdtempSync(join(tmpdir(), 'multiauth-scale-check-'));
  try {
    const users = Array.from({ length: CHECK_USERS }, (_, i) => `      - { username: user-${i}, password: pw-${i} }`);
    writeFileSync(
      join(dir, 'multiauth.yaml'),
      `presets:\n  - type: oauth_userpass\n    url: ${tokens.url}/token\n    client_id: bench\n    client_secret: bench-secret\n    users:\n${users.join('\n')}\n`,
    );
    const check = async (parallel: number): Promise<number> => {
      const before = tokens.signIns();
      const run = await runCliAsync(['check', '-c', join(dir, 'multiauth.yaml'), '--parallel', String(parallel), '--json'], { cwd: dir, timeoutMs: 120_000 });
      const signIns = tokens.signIns() - before;
      if (run.code !== 0 || signIns !== CHECK_USERS) throw new Error(`check --parallel ${parallel}: exit ${run.code}, ${signIns} sign-ins\n${run.stderr.slice(0, 2000)}`);
      return run.elapsedMs;
    };
    const serialMs = await check(1);
    const parallelMs = await check(8);
    return {
      name: `multiauth check of ${CHECK_USERS} users (${SIGNIN_DELAY_MS} ms a sign-in at the server), --parallel 8 (${round(parallelMs / 1000)} s) vs --parallel 1 (${round(serialMs / 1000)} s), whole command`,
      ours: round((CHECK_USERS * 1000) / parallelMs),
      peer: round((CHECK_USERS * 1000) / serialMs),
      unit: 'sign-ins/s',
      ratio: serialMs / parallelMs,
      aim: 5,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await tokens.close();
  }
}

/**
 * {@link WORKERS} processes started at once, each asking one file store (a shared cache directory,
 * under its lock) for the same {@link CONTENDED_USERS} users at once: a 50-worker run whose every
 * worker needs every user. Two figures: the sign-ins the token server counted (exactly one per
 * user), and the wall time from the first spawn to the last exit, beside the same 50 processes
 * reading the sessions the first round left (no sign-in, no lock held), aim {@link CONTENTION_AIM}.
 *
 * @example
 * const [signIns, time] = await benchContention(); // signIns.ours === 10
 */
export async function benchContention(): Promise<BenchResult[]> {
  const tokens = await startTokenServer();
  const dir = mkdtempSync(join(tmpdir(), 'multiauth-scale-contention-'));
  const users = Array.from({ length: CONTENDED_USERS }, (_, i) => `user-${i}`);
  try {
    const round50 = async (expected: 'fresh' | 'cached'): Promise<number> => {
      const started = performance.now();
      const runs = await Promise.all(
        Array.from({ length: WORKERS }, () =>
          runNodeChild([join(root, 'bench', 'scale-worker.mjs'), join(root, 'dist'), join(dir, '.auth'), `${tokens.url}/token`, ...users], {
            cwd: root,
            env: { PATH: process.env.PATH ?? '' },
            timeoutMs: 300_000,
          }),
        ),
      );
      const elapsed = performance.now() - started;
      for (const run of runs) {
        if (run.code !== 0) throw new Error(`a worker failed (exit ${run.code}, ${run.signal ?? 'no signal'}):\n${run.stderr.slice(0, 2000)}`);
      }
      const sources = runs.map((run) => JSON.parse(run.stdout) as Record<string, string>);
      if (expected === 'cached' && sources.some((s) => Object.values(s).some((source) => source !== 'cached'))) throw new Error('the second round signed in again');
      return elapsed;
    };
    const coldMs = await round50('fresh');
    const signIns = tokens.signIns();
    const warmMs = await round50('cached');
    return [
      {
        name: `sign-ins of ${WORKERS} processes asking one file store for the same ${CONTENDED_USERS} users at once (one per user)`,
        ours: signIns,
        peer: CONTENDED_USERS,
        unit: 'sign-ins',
        ratio: signIns / CONTENDED_USERS,
        aim: 1,
      },
      {
        name: `wall time of those ${WORKERS} processes (${SIGNIN_DELAY_MS} ms a sign-in), beside the same ${WORKERS} reading the sessions they left`,
        ours: round(coldMs),
        peer: round(warmMs),
        unit: 'ms wall',
        ratio: coldMs / warmMs,
        aim: CONTENTION_AIM,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await tokens.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const which = process.argv[2];
  const results = [...(which === 'contention' ? [] : [await benchCheckParallel()]), ...(which === 'check' ? [] : await benchContention())];
  for (const r of results) console.log(`${r.name}: ours ${r.ours}, peer ${r.peer} ${r.unit}, ratio ${r.ratio.toFixed(3)} (aim ${r.aim})`);
}
