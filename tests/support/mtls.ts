import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Files of a throwaway PKI: a CA, a server certificate for 127.0.0.1, and a client certificate. */
export interface TestPki {
  dir: string;
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

function openssl(dir: string, ...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

/** Makes a CA and two certificates it signed, with openssl, in a fresh temp folder. */
export function makePki(clientName = 'alice-client'): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'multiauth-pki-'));
  openssl(dir, 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=multiauth test CA');
  const sign = (name: string, subject: string, ext: string) => {
    openssl(dir, 'req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject);
    execFileSync('sh', ['-c', `printf '%s\\n' '${ext}' > ${name}.ext`], { cwd: dir });
    openssl(dir, 'x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.crt`, '-days', '2', '-extfile', `${name}.ext`);
  };
  sign('server', '/CN=127.0.0.1', 'subjectAltName=IP:127.0.0.1');
  sign('client', `/CN=${clientName}`, 'extendedKeyUsage=clientAuth');
  return {
    dir,
    caCert: join(dir, 'ca.crt'),
    serverCert: join(dir, 'server.crt'),
    serverKey: join(dir, 'server.key'),
    clientCert: join(dir, 'client.crt'),
    clientKey: join(dir, 'client.key'),
  };
}

/** An HTTPS server that refuses connections without a client certificate signed by the test CA. */
export interface MtlsServer {
  url: string;
  /** Common names of the client certificates of requests that reached a handler. */
  seen: Array<{ path: string; client: string; authorization?: string }>;
  stop(): Promise<void>;
}

/**
 * Starts it on 127.0.0.1: `POST /token` answers `{"access_token": "mtls-<client CN>"}`, any other
 * path answers `{"client": CN, "authorization": ...}`.
 */
export async function startMtlsServer(pki: TestPki): Promise<MtlsServer> {
  const seen: MtlsServer['seen'] = [];
  const server: Server = createServer(
    {
      cert: readFileSync(pki.serverCert),
      key: readFileSync(pki.serverKey),
      ca: readFileSync(pki.caCert),
      requestCert: true,
      rejectUnauthorized: true,
    },
    (req, res) => {
      const peer = (req.socket as import('node:tls').TLSSocket).getPeerCertificate();
      const client = typeof peer.subject?.CN === 'string' ? peer.subject.CN : '';
      seen.push({ path: req.url ?? '', client, ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
      res.setHeader('content-type', 'application/json');
      res.setHeader('access-control-allow-origin', '*');
      if (req.url === '/token') res.end(JSON.stringify({ access_token: `mtls-${client}` }));
      else res.end(JSON.stringify({ client, authorization: req.headers.authorization ?? null }));
    },
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    seen,
    stop: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
