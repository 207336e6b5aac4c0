import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { request } from 'undici';
import { readBody, startHttpServer } from '../../support/servers/node-http.js';

/** One request the relay passed on, and the status the real server answered. */
export interface RelayedExchange {
  method: string;
  /** Path and query, as the client asked. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

/** A pass-through HTTP relay in front of a real server, recording every exchange. */
export interface Relay {
  /** `http://127.0.0.1:PORT`: use it in place of the server's origin. */
  url: string;
  /** Every exchange so far, oldest first. */
  exchanges: RelayedExchange[];
  /** The form bodies of the POSTs to `path` (token requests), parsed. */
  forms(path: string): URLSearchParams[];
  /** The JSON bodies of the POSTs to `path`, parsed. */
  jsonBodies(path: string): Array<Record<string, unknown>>;
  close(): Promise<void>;
}

/** Options of {@link startRelay}. */
export interface RelayOptions {
  /**
   * Rewrites each `WWW-Authenticate` value of the server's responses (the only thing a relay ever
   * changes): lets a test offer the client a variant of a real server's challenge that the server
   * verifies but never advertises (lighttpd accepts `-sess` and RFC 2069 answers, offers neither).
   */
  rewriteChallenge?: (value: string) => string;
}

const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade', 'proxy-connection']);

/**
 * Starts a relay on 127.0.0.1 (port 0) that passes every request on to `target` (an origin) as is
 * and the answer back, recording both: tests read what a real server was sent (which grant type,
 * which client authentication, which Cognito flow) without touching the server.
 *
 * @example
 * const relay = await startRelay(oauth.url);
 * // sign in against `${relay.url}/token`, then:
 * relay.forms('/token').map((f) => f.get('grant_type')); // ['password', 'refresh_token']
 * await relay.close();
 */
export async function startRelay(target: string, options: RelayOptions = {}): Promise<Relay> {
  const exchanges: RelayedExchange[] = [];
  const running = await startHttpServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const headers: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
      }
      const answer = await request(`${target}${req.url ?? '/'}`, {
        method: (req.method ?? 'GET') as 'GET',
        headers,
        ...(body === '' ? {} : { body }),
      });
      const text = Buffer.from(await answer.body.arrayBuffer());
      exchanges.push({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body, status: answer.statusCode });
      const out: OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value === undefined || HOP_BY_HOP.has(name)) continue;
        const rewrite = name === 'www-authenticate' ? options.rewriteChallenge : undefined;
        out[name] = rewrite ? (Array.isArray(value) ? value.map(rewrite) : rewrite(value)) : value;
      }
      out['content-length'] = text.length;
      res.writeHead(answer.statusCode, out).end(text);
    })().catch((error: unknown) => {
      res.writeHead(502, { 'content-type': 'text/plain' }).end(`relay: ${String(error)}`);
    });
  });
  const posts = (path: string) => exchanges.filter((e) => e.method === 'POST' && e.path.split('?')[0] === path);
  return {
    url: running.url,
    exchanges,
    forms: (path) => posts(path).map((e) => new URLSearchParams(e.body)),
    jsonBodies: (path) => posts(path).map((e) => JSON.parse(e.body) as Record<string, unknown>),
    close: () => running.close(),
  };
}
