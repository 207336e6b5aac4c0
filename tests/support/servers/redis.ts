import { existsSync } from 'node:fs';
import { startDaemon, startOnFreePort, type Daemon } from './process.js';

/** A running Debian `redis-server` on 127.0.0.1, no persistence. */
export interface RedisServer {
  /** `redis://127.0.0.1:PORT/0`. */
  url: string;
  port: number;
  /** Stops the server (SIGTERM): what "Redis stopped mid-run" means in the tests. */
  stop(): Promise<void>;
}

const BINARY = ['/usr/bin/redis-server', '/usr/sbin/redis-server'].find((path) => existsSync(path));

/**
 * Starts Debian's `redis-server` (scripts/ensure-deps.sh installs it) on a free port, in the
 * foreground, saving nothing to disk.
 *
 * @example
 * const redis = await startRedis();
 * // MULTIAUTH_STORE: redis.url
 * await redis.stop();
 */
export async function startRedis(): Promise<RedisServer> {
  if (!BINARY) throw new Error('redis-server is not installed: run scripts/ensure-deps.sh (apt-get install redis-server)');
  const { port, daemon } = await startOnFreePort(async (port) => ({
    port,
    daemon: await startDaemon({
      name: 'redis-server',
      command: BINARY,
      args: ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes', '--loglevel', 'warning'],
      port,
    }),
  }));
  let stopped: Promise<void> | undefined;
  return { url: `redis://127.0.0.1:${port}/0`, port, stop: () => (stopped ??= (daemon as Daemon).stop()) };
}
