import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { MailStore, StoredMail } from './store.js';

/** Streams open at once; a run has a few workers, each waiting for one mail at a time. */
const MAX_STREAMS = 256;

/** What the API's health route answers: also how a reader tells the sink from another server. */
export const SINK_SERVICE = 'multiauth-mail-sink';

/** Routes of the sink's API (all GET, JSON or server-sent events, loopback only). */
export const SINK_ROUTES = { health: '/health', cursor: '/cursor', stream: '/stream' } as const;

/** What the API serves from: the mailbox, this sink's epoch, and the SMTP address it names. */
export interface SinkApiOptions {
  store: MailStore;
  /** Random per sink: a cursor of another sink (one that was restarted) counts from its first mail. */
  epoch: string;
  /** `host:port` of the SMTP side, for the health answer. */
  smtp: string;
}

/**
 * The sink's HTTP API, for readers in other processes (Playwright workers, the CLI):
 *
 * - `GET /health`: `{ service, epoch, smtp }`, what Playwright's `webServer` waits for;
 * - `GET /cursor`: `{ epoch, seq }`, the last mail's sequence number;
 * - `GET /stream?to=ADDRESS&after=SEQ&epoch=EPOCH`: server-sent events, first of the mail held after
 *   `after`, then of each mail the moment it arrives: `event: mail` with the parsed message when
 *   `to` is among its envelope recipients, else `event: other` with its recipients and subject only.
 *
 * Only requests whose `Host` is a loopback name are served (a page on another origin that rebinds its
 * name to 127.0.0.1 is refused), and no CORS header is sent: a browser's page reads nothing.
 *
 * @example
 * const server = sinkApi({ store, epoch, smtp: '127.0.0.1:2525' });
 * server.listen(2526, '127.0.0.1');
 */
export function sinkApi(options: SinkApiOptions): Server {
  let streams = 0;
  const server = createServer((request, response) => {
    try {
      route(request, response);
    } catch {
      if (!response.headersSent) send(response, 500, { error: 'internal error' });
      else response.destroy();
    }
  });

  function route(request: IncomingMessage, response: ServerResponse): void {
    if (!loopbackHost(request.headers.host)) return send(response, 403, { error: 'only loopback names are served' });
    if (request.method !== 'GET') return send(response, 405, { error: 'only GET' });
    const url = new URL(request.url ?? '/', 'http://sink.invalid');
    if (url.pathname === SINK_ROUTES.health) return send(response, 200, { service: SINK_SERVICE, epoch: options.epoch, smtp: options.smtp });
    if (url.pathname === SINK_ROUTES.cursor) return send(response, 200, { epoch: options.epoch, seq: options.store.last });
    if (url.pathname !== SINK_ROUTES.stream) return send(response, 404, { error: 'no such route' });
    const to = (url.searchParams.get('to') ?? '').trim().toLowerCase();
    const afterText = url.searchParams.get('after') ?? '0';
    if (!to || to.length > 320 || !/^\d{1,15}$/.test(afterText)) return send(response, 400, { error: 'to and after (a sequence number) are needed' });
    if (streams >= MAX_STREAMS) return send(response, 503, { error: 'too many readers' });
    // A cursor of another sink (this one restarted) says nothing of this one's numbers: all its mail is new.
    const after = url.searchParams.get('epoch') === options.epoch ? Number(afterText) : 0;
    streams += 1;
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    response.flushHeaders();
    const push = (mail: StoredMail): void => {
      const isFor = mail.message.recipients.includes(to);
      const data = isFor ? mail.message : { seq: mail.seq, recipients: mail.message.recipients, subject: mail.message.subject };
      response.write(`event: ${isFor ? 'mail' : 'other'}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    for (const mail of options.store.after(after)) push(mail);
    const off = options.store.onMail(push);
    const close = (): void => {
      off();
      streams -= 1;
    };
    response.once('close', close);
  }

  return server;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

function loopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  const name = host.replace(/:\d+$/, '').toLowerCase();
  return name === '127.0.0.1' || name === 'localhost' || name === '[::1]';
}
