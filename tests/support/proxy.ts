import { createServer, request as httpRequest } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/** A forward proxy a test started; `seen` lists what went through it. */
export interface RunningProxy {
  url: string;
  /** `CONNECT host:port` for tunnels, `METHOD absolute-url` for plain proxied requests, in order. */
  seen: string[];
  close(): Promise<void>;
}

/**
 * A tiny HTTP forward proxy on 127.0.0.1 (port 0): tunnels `CONNECT host:port` and forwards
 * absolute-form requests (`GET http://host/path`). With `requireAuth`, anything without that
 * exact `Proxy-Authorization` gets 407.
 *
 * @example
 * const proxy = await startForwardProxy();
 * // ... send through proxy.url, then:
 * expect(proxy.seen).toEqual([`CONNECT 127.0.0.1:${port}`]);
 * await proxy.close();
 */
export async function startForwardProxy(options: { requireAuth?: string } = {}): Promise<RunningProxy> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const authorized = (header: string | undefined) => !options.requireAuth || header === options.requireAuth;

  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (!authorized(req.headers['proxy-authorization'])) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="proxy"' }).end();
      return;
    }
    const target = new URL(req.url ?? '');
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const upstream = httpRequest(target, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });

  server.on('connect', (req, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    if (!authorized(req.headers['proxy-authorization'])) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="proxy"\r\n\r\n');
      return;
    }
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host ?? '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
