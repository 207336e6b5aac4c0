import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { startHttpServer, type RunningServer } from './node-http.js';

/** One mail the stand-in holds, as Mailpit's database row has it. */
interface Held {
  ID: string;
  MessageID: string;
  Created: string;
  From: { Name: string; Address: string };
  To: Array<{ Name: string; Address: string }>;
  Cc: Array<{ Name: string; Address: string }>;
  Bcc: Array<{ Name: string; Address: string }>;
  Subject: string;
  Size: number;
  raw: Buffer;
}

/** A running stand-in of Mailpit. */
export interface MailpitStandIn {
  /** The web address (`http://127.0.0.1:PORT`), what `mail.mailpit` is set to. */
  url: string;
  /** Its SMTP port on 127.0.0.1. */
  smtpPort: number;
  /** Requests its API got, in order (path and query). */
  requests: string[];
  /** Deletes every message, as `DELETE /api/v1/messages` does. */
  clear(): void;
  close(): Promise<void>;
}

/**
 * A stand-in of Mailpit (it has no npm or Debian package) for the Mailpit reader's tests: an SMTP
 * server (smtp-server) and the part of Mailpit's REST API v1 the reader uses, with Mailpit's JSON
 * shapes (https://mailpit.axllent.org/docs/api-v1/): `GET /api/v1/messages?start=&limit=` (newest
 * first: `total`, `unread`, `count`, `messages_count`, `start`, `tags`, `messages` of summaries with
 * `ID`, `MessageID`, `Read`, `From`, `To`, `Cc`, `Bcc`, `ReplyTo`, `Subject`, `Created`, `Tags`,
 * `Size`, `Attachments`, `Snippet`), `GET /api/v1/message/{ID}/raw` and `GET /api/v1/info`. As
 * Mailpit does, an envelope recipient missing from To and Cc is listed under Bcc, and `Created` is
 * the time it received the mail, whatever the `Date` header says.
 *
 * @example
 * const mailpit = await startMailpitStandIn();
 * // mail: { mailpit: mailpit.url }, the application sends to 127.0.0.1:mailpit.smtpPort
 */
export async function startMailpitStandIn(): Promise<MailpitStandIn> {
  const held: Held[] = [];
  const requests: string[] = [];
  const smtp = new SMTPServer({
    logger: false, disabledCommands: ['STARTTLS'], hideSTARTTLS: true, authOptional: true,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        const created = new Date();
        void simpleParser(raw).then((mail) => {
          const list = (value: AddressObject | AddressObject[] | undefined) =>
            (Array.isArray(value) ? value : value ? [value] : []).flatMap((object) => object.value).map((a) => ({ Name: a.name ?? '', Address: a.address ?? '' }));
          const to = list(mail.to);
          const cc = list(mail.cc);
          const shown = new Set([...to, ...cc].map((a) => a.Address.toLowerCase()));
          const bcc = session.envelope.rcptTo.filter((r) => !shown.has(r.address.toLowerCase())).map((r) => ({ Name: '', Address: r.address }));
          const [from] = list(mail.from);
          held.push({
            ID: randomBytes(16).toString('base64url').slice(0, 22), MessageID: mail.messageId ?? '', Created: created.toISOString(),
            From: from ?? { Name: '', Address: '' }, To: to, Cc: cc, Bcc: bcc, Subject: mail.subject ?? '', Size: raw.length, raw,
          });
          callback();
        }, (error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const api: RunningServer = await startHttpServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://mailpit.invalid');
    requests.push(`${url.pathname}${url.search}`);
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (url.pathname === '/api/v1/info') return json(200, { Version: 'v1.21.0-stand-in', Messages: held.length, Unread: held.length });
    if (url.pathname === '/api/v1/messages') {
      const start = Number(url.searchParams.get('start') ?? 0);
      const limit = Number(url.searchParams.get('limit') ?? 50);
      const newest = [...held].reverse().slice(start, start + limit);
      return json(200, {
        total: held.length, unread: held.length, count: newest.length, messages_count: held.length, messages_unread: held.length, start, tags: [],
        messages: newest.map(({ raw, ...row }) => ({ ...row, Read: false, ReplyTo: [], Tags: [], Attachments: 0, Snippet: raw.toString('utf8').slice(-40) })),
      });
    }
    const raw = /^\/api\/v1\/message\/([^/]+)\/raw$/.exec(url.pathname);
    if (raw) {
      const found = held.find((mail) => mail.ID === decodeURIComponent(raw[1] as string));
      if (!found) return json(404, 'message not found');
      response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      return response.end(found.raw);
    }
    json(404, 'not found');
  });
  return {
    url: api.url,
    smtpPort: (smtp.server.address() as AddressInfo).port,
    requests,
    clear: () => void held.splice(0),
    close: async () => {
      await api.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
  };
}
