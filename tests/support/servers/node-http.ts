import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';

/** A server a test started on 127.0.0.1, port 0. */
export interface RunningServer {
  /** `http://127.0.0.1:PORT` (or https). */
  url: string;
  server: Server;
  close(): Promise<void>;
}

/**
 * Starts a node:http server on 127.0.0.1 and a free port.
 *
 * @example
 * const api = await startHttpServer((req, res) => res.end('ok'));
 * await api.close();
 */
export async function startHttpServer(handler: RequestListener, options: ServerOptions = {}): Promise<RunningServer> {
  return listen(createServer(options, handler), 'http');
}

/** A self-signed certificate for 127.0.0.1 and localhost, made with openssl. */
export interface SelfSignedCertificate {
  key: string;
  cert: string;
}

/**
 * Makes a throwaway self-signed certificate with the system's openssl.
 *
 * @example
 * const { key, cert } = selfSignedCertificate();
 */
export function selfSignedCertificate(): SelfSignedCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'multiauth-cert-'));
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1',
      '-subj', '/CN=127.0.0.1',
      '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Starts a node:https server with a self-signed certificate on 127.0.0.1 and a free port.
 *
 * @example
 * const secure = await startHttpsServer(selfSignedCertificate(), (req, res) => res.end('ok'));
 */
export async function startHttpsServer(certificate: SelfSignedCertificate, handler: RequestListener): Promise<RunningServer> {
  return listen(createHttpsServer(certificate, handler) as unknown as Server, 'https');
}

/**
 * Reads a request body as text.
 *
 * @example
 * const body = await readBody(req);
 */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Answers with JSON.
 *
 * @example
 * sendJson(res, 200, { ok: true });
 */
export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string | string[]> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

async function listen(server: Server, scheme: 'http' | 'https'): Promise<RunningServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
