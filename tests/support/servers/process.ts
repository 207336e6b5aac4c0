import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../ports.js';

/**
 * A new private temp directory. `shared` makes it world-readable, for servers that drop root
 * privileges (Apache's `User www-data`) and must still read their config and files.
 *
 * @example
 * const dir = await makeTempDir('lighttpd');
 */
export async function makeTempDir(prefix: string, shared = false): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `multiauth-${prefix}-`));
  if (shared) await chmod(dir, 0o755);
  return dir;
}

/**
 * Removes a directory made by {@link makeTempDir}.
 *
 * @example
 * await removeDir(dir);
 */
export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** A server process started by {@link startDaemon}. */
export interface Daemon {
  child: ChildProcess;
  /** What it printed so far (stdout and stderr, capped). */
  output(): string;
  /** Ends it (SIGTERM, then SIGKILL after a grace period) and waits for it to exit. */
  stop(): Promise<void>;
}

/** How to start a server process and know it is ready. */
export interface DaemonOptions {
  name: string;
  command: string;
  args: string[];
  port: number;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** How long to wait for the port to accept connections; default 20 s. */
  timeoutMs?: number;
}

/**
 * Starts a server process in the foreground (never a shell) and resolves when 127.0.0.1:`port`
 * accepts connections. Rejects with the process's output when it exits first or takes too long.
 *
 * @example
 * const daemon = await startDaemon({ name: 'lighttpd', command: '/usr/sbin/lighttpd', args: ['-D', '-f', conf], port });
 * await daemon.stop();
 */
export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    if (output.length < 64 * 1024) output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  // A worker that dies without its afterAll must not leave the server running.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      process.removeListener('exit', killOnExit);
      resolve();
    }),
  );
  const daemon: Daemon = { child, output: () => output, stop: () => stopChild(child, exited) };

  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${options.name} exited (${child.exitCode ?? child.signalCode}) before listening:\n${output}`);
    }
    if (await accepts(options.port)) return daemon;
    await new Promise((r) => setTimeout(r, 50));
  }
  await daemon.stop();
  throw new Error(`${options.name} did not listen on 127.0.0.1:${options.port} in time:\n${output}`);
}

/**
 * Calls `start` with a free port, again with another one (up to 3 tries) when binding it fails,
 * since a port found free may be taken before the server binds it.
 *
 * @example
 * const daemon = await startOnFreePort((port) => startDaemon({ ...options, port }));
 */
export async function startOnFreePort<T>(start: (port: number) => Promise<T>): Promise<T> {
  let last: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await start(await freePort());
    } catch (error) {
      last = error;
      if (!/in use|EADDRINUSE|bind/i.test(String(error))) break;
    }
  }
  throw last;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
