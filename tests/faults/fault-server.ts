import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, sendJson, startHttpServer, type RunningServer } from '../support/servers/node-http.js';

/** The password every fault user signs in with; no rendered error may show it. */
export const PASSWORD = 'pw-Fault-4711-secret';

/**
 * A token the server hands out to `user`; a failed sign-in must never show one.
 *
 * @example
 * tokenFor('alice'); // 'tok-alice-S3CRET-a1b2c3'
 */
export function tokenFor(user: string): string {
  return `tok-${user}-S3CRET-a1b2c3`;
}

/** A sign-in endpoint that misbehaves on purpose, one way per path, counting the requests it gets. */
export interface FaultServer extends RunningServer {
  /** Requests received per path (`/500`, `/429-always`, ...), since the last {@link FaultServer.reset}. */
  hits: Map<string, number>;
  /** When each request of a path arrived (ms, `performance.now()` of the server), oldest first. */
  arrivals: Map<string, number[]>;
  reset(): void;
}

type Fault = (req: IncomingMessage, res: ServerResponse, body: string, hit: number) => void;

/** Answers a sign-in with a token for the user named in the JSON body. */
function grant(res: ServerResponse, body: string): void {
  sendJson(res, 200, { access_token: tokenFor(userOf(body)), token_type: 'Bearer' });
}

/** The faults, by path. Each route is one line. */
const FAULTS: Record<string, Fault> = {
  '/ok': (_req, res, body) => grant(res, body),
  '/500': (_req, res, body) => sendJson(res, 500, { error: 'database down', received: JSON.parse(body || '{}') as unknown }),
  '/429-then-ok': (_req, res, body, hit) => (hit === 1 ? sendJson(res, 429, { error: 'slow down' }, { 'retry-after': '1' }) : grant(res, body)),
  '/429-date-then-ok': (_req, res, body, hit) =>
    hit === 1 ? sendJson(res, 429, { error: 'slow down' }, { 'retry-after': new Date(Date.now() + 1_000).toUTCString() }) : grant(res, body),
  '/429-always': (_req, res) => sendJson(res, 429, { error: 'slow down' }, { 'retry-after': '1' }),
  '/429-long': (_req, res) => sendJson(res, 429, { error: 'slow down' }, { 'retry-after': '120' }),
  '/429-bare': (_req, res) => sendJson(res, 429, { error: 'slow down' }),
  '/429-6-then-ok': (_req, res, body, hit) => (hit === 1 ? sendJson(res, 429, { error: 'slow down' }, { 'retry-after': '6' }) : grant(res, body)),
  '/503-then-ok': (_req, res, body, hit) => (hit === 1 ? void res.writeHead(503).end('maintenance') : grant(res, body)),
  '/401': (_req, res) => sendJson(res, 401, { error: 'invalid_grant' }),
  '/slow': (_req, res, body) => void setTimeout(() => grant(res, body), 3_000).unref(),
  '/malformed-json': (_req, res, body) =>
    void res.writeHead(200, { 'content-type': 'application/json' }).end(`{"access_token": "${tokenFor(userOf(body))}", "expires_in": 3600`),
  '/html': (_req, res, body) =>
    void res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><body><form><input type="hidden" name="csrf" value="${tokenFor(userOf(body))}"></form></body></html>`),
  '/no-token': (_req, res, body) => sendJson(res, 200, { refresh_token: tokenFor(userOf(body)), token_type: 'Bearer' }),
  '/loop': (_req, res) => void res.writeHead(302, { location: '/loop' }).end(),
  // Sends the sign-in on, body and all, to the port in `?to=`: another origin.
  '/307-away': (req, res) =>
    void res.writeHead(307, { location: `http://127.0.0.1:${new URL(req.url ?? '/', 'http://x').searchParams.get('to')}/token` }).end(),
  '/digest-sha512': (_req, res) =>
    void res.writeHead(401, { 'www-authenticate': 'Digest realm="faults", nonce="n0nce", algorithm=SHA-512-256, qop="auth"' }).end(),
};

function userOf(body: string): string {
  return (JSON.parse(body || '{}') as { username?: string }).username ?? 'nobody';
}

/**
 * Starts the fault server on 127.0.0.1, port 0.
 *
 * @example
 * const faults = await startFaultServer();
 * faults.hits.get('/500'); // 1 after one sign-in
 */
export async function startFaultServer(): Promise<FaultServer> {
  const hits = new Map<string, number>();
  const arrivals = new Map<string, number[]>();
  const running = await startHttpServer(async (req, res) => {
    const arrived = performance.now();
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    arrivals.set(path, [...(arrivals.get(path) ?? []), arrived]);
    const body = await readBody(req);
    const hit = (hits.get(path) ?? 0) + 1;
    hits.set(path, hit);
    const fault = FAULTS[path];
    if (fault) fault(req, res, body, hit);
    else sendJson(res, 404, { error: `no fault at ${path}` });
  });
  return Object.assign(running, { hits, arrivals, reset: () => (hits.clear(), arrivals.clear()) });
}

/** A raw TCP server that misbehaves below HTTP: it counts connections, and `onData` decides each one. */
export interface RawServer {
  url: string;
  connections: number;
  close(): Promise<void>;
}

/**
 * Starts a TCP server on 127.0.0.1, port 0, that hands each connection's first bytes of request to
 * `onData(socket, connectionNumber)` (1-based): to reset it, answer halfway, or answer properly.
 *
 * @example
 * const raw = await startRawServer((socket, n) => socket.resetAndDestroy());
 */
export async function startRawServer(onData: (socket: Socket, connection: number) => void): Promise<RawServer> {
  const sockets = new Set<Socket>();
  const state = { connections: 0 };
  const server: Server = createServer((socket) => {
    const connection = ++state.connections;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.once('data', () => onData(socket, connection));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get connections() {
      return state.connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A complete HTTP/1.1 response granting `user` a token, as raw text for a socket.
 *
 * @example
 * socket.end(rawGrant('alice'));
 */
export function rawGrant(user: string): string {
  const body = JSON.stringify({ access_token: tokenFor(user), token_type: 'Bearer' });
  return `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}
