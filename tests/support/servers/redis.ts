import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { makeTempDir, removeDir, startDaemon, startOnFreePort, type Daemon } from './process.js';

/** A running Debian `redis-server` on 127.0.0.1, no persistence. */
export interface RedisServer {
  /** `redis://127.0.0.1:PORT/0`, or `rediss://localhost:PORT/0` with TLS. */
  url: string;
  port: number;
  /** With TLS: the PEM file of the self-signed CA that signed the server's certificate. */
  caFile?: string;
  /** Stops the server (SIGTERM): what "Redis stopped mid-run" means in the tests. */
  stop(): Promise<void>;
}

/** Options of {@link startRedis}. */
export interface RedisOptions {
  /**
   * true: only a TLS port (`--port 0 --tls-port N`), with a certificate for `localhost` signed by
   * a CA made for this server (openssl); clients are not asked for certificates.
   */
  tls?: boolean;
}

const BINARY = ['/usr/bin/redis-server', '/usr/sbin/redis-server'].find((path) => existsSync(path));

/**
 * Starts Debian's `redis-server` (scripts/ensure-deps.sh installs it) on a free port, in the
 * foreground, saving nothing to disk; with `tls`, on a TLS port only (as managed Redis services are).
 *
 * @example
 * const redis = await startRedis();
 * // MULTIAUTH_STORE: redis.url
 * await redis.stop();
 * const secure = await startRedis({ tls: true }); // rediss://localhost:PORT/0, secure.caFile
 */
export async function startRedis(options: RedisOptions = {}): Promise<RedisServer> {
  if (!BINARY) throw new Error('redis-server is not installed: run scripts/ensure-deps.sh (apt-get install redis-server)');
  const certs = options.tls ? await makeCertificates() : undefined;
  const { port, daemon } = await startOnFreePort(async (port) => ({
    port,
    daemon: await startDaemon({
      name: 'redis-server',
      command: BINARY,
      args: [
        ...(certs
          ? ['--port', '0', '--tls-port', String(port), '--tls-cert-file', certs.cert, '--tls-key-file', certs.key, '--tls-ca-cert-file', certs.ca, '--tls-auth-clients', 'no']
          : ['--port', String(port)]),
        '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes', '--loglevel', 'warning',
      ],
      port,
    }),
  }));
  let stopped: Promise<void> | undefined;
  const stop = async (): Promise<void> => {
    await (daemon as Daemon).stop();
    if (certs) await removeDir(certs.dir);
  };
  return {
    url: certs ? `rediss://localhost:${port}/0` : `redis://127.0.0.1:${port}/0`,
    port,
    ...(certs ? { caFile: certs.ca } : {}),
    stop: () => (stopped ??= stop()),
  };
}

/** A CA and a certificate for `localhost` (and 127.0.0.1) it signed, made with openssl. */
async function makeCertificates(): Promise<{ dir: string; ca: string; cert: string; key: string }> {
  const dir = await makeTempDir('redis-tls');
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe', timeout: 30_000 });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=multiauth test CA', '-keyout', at('ca.key'), '-out', at('ca.pem'));
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-keyout', at('server.key'), '-out', at('server.csr'));
  writeFileSync(at('san.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  openssl('x509', '-req', '-in', at('server.csr'), '-CA', at('ca.pem'), '-CAkey', at('ca.key'), '-CAcreateserial', '-days', '2', '-extfile', at('san.ext'), '-out', at('server.pem'));
  return { dir, ca: at('ca.pem'), cert: at('server.pem'), key: at('server.key') };
}

/** A server that accepts connections and never answers: a Redis that hangs (a stuck proxy, a paused VM). */
export interface SilentServer {
  /** `redis://127.0.0.1:PORT/0`. */
  url: string;
  /** How many connections it accepted. */
  connections(): number;
  stop(): Promise<void>;
}

/**
 * Starts a node:net server on 127.0.0.1 that accepts every connection, reads what it is sent and
 * never writes a byte back.
 *
 * @example
 * const silent = await startSilentRedis();
 * // MULTIAUTH_STORE: silent.url
 * await silent.stop();
 */
export async function startSilentRedis(): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}/0`,
    connections: () => accepted,
    stop: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
