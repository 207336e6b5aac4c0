import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { MultiAuthError } from '../../core/errors.js';
import { MAIL_LIMITS } from './limits.js';
import { parseMail } from './parse.js';
import { sinkApi } from './sink-api.js';
import { MailStore } from './store.js';

/** Where the sink listens: SMTP on `host:port` (port 0: any free one), its API on 127.0.0.1:`apiPort`. */
export interface MailSinkOptions {
  host: string;
  port: number;
  apiPort: number;
}

/** A running sink. */
export interface MailSink {
  /** The SMTP side, as listening (the real port when 0 was asked). */
  readonly host: string;
  readonly port: number;
  /** The API's port on 127.0.0.1, and its base URL (`http://127.0.0.1:PORT`). */
  readonly apiPort: number;
  readonly apiUrl: string;
  /** What the sink holds (for in-process readers and tests). */
  readonly store: MailStore;
  /** Stops both sides; the mail it held is gone. */
  close(): Promise<void>;
}

/**
 * Starts the package's mail sink: an SMTP server (smtp-server) that takes any mail for any
 * recipient, parses it once (mailparser, bounded) and keeps it in memory for its life, and the HTTP
 * API readers wait on. No TLS and any AUTH accepted: it is a catcher on loopback, which an
 * application's mail settings point at; AUTH's password is neither checked nor kept.
 *
 * @throws MultiAuthError `MAIL_UNAVAILABLE` when a port is taken or the host is not this machine's.
 * @example
 * const sink = await startMailSink({ host: '127.0.0.1', port: 2525, apiPort: 2526 });
 * // ... the application sends to 127.0.0.1:2525, readers read http://127.0.0.1:2526
 * await sink.close();
 */
export async function startMailSink(options: MailSinkOptions): Promise<MailSink> {
  const store = new MailStore();
  const epoch = randomBytes(8).toString('hex');
  const smtp = smtpServer(store);
  await listen(smtp.server, options.port, options.host, 'SMTP');
  const smtpAddress = smtp.server.address() as AddressInfo;
  const smtpName = `${options.host}:${smtpAddress.port}`;
  const api = sinkApi({ store, epoch, smtp: smtpName });
  try {
    await listen(api, options.apiPort, '127.0.0.1', 'API');
  } catch (error) {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    throw error;
  }
  const apiPort = (api.address() as AddressInfo).port;
  return {
    host: options.host,
    port: smtpAddress.port,
    apiPort,
    apiUrl: `http://127.0.0.1:${apiPort}`,
    store,
    close: async () => {
      api.closeAllConnections();
      await Promise.all([
        new Promise<void>((resolve) => api.close(() => resolve())),
        new Promise<void>((resolve) => smtp.close(() => resolve())),
      ]);
    },
  };
}

function smtpServer(store: MailStore): SMTPServer {
  const server = new SMTPServer({
    banner: 'multiauth mail sink',
    logger: false,
    // A catcher: a STARTTLS offer with a made-up certificate would fail every client that checks it.
    disabledCommands: ['STARTTLS'],
    hideSTARTTLS: true,
    authOptional: true,
    allowInsecureAuth: true,
    size: MAIL_LIMITS.mailBytes,
    maxClients: 200,
    // Stopping the sink (SIGTERM at the run's end) does not wait for a client that keeps its connection.
    closeTimeout: 1_000,
    onAuth(_auth, _session, callback) {
      callback(null, { user: 'sink' });
    },
    onRcptTo(address, session, callback) {
      if (session.envelope.rcptTo.length >= MAIL_LIMITS.recipients) return callback(withCode(new Error('too many recipients'), 452));
      callback();
    },
    onData(stream, session, callback) {
      receive(stream, session, store).then(() => callback(), (error: Error) => callback(error));
    },
  });
  // An error on one client's connection is that client's; the sink goes on.
  server.on('error', () => undefined);
  return server;
}

async function receive(stream: SMTPServerDataStream, session: SMTPServerSession, store: MailStore): Promise<void> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes <= MAIL_LIMITS.mailBytes) chunks.push(chunk);
  }
  if (stream.sizeExceeded || bytes > MAIL_LIMITS.mailBytes) throw withCode(new Error(`mail larger than ${MAIL_LIMITS.mailBytes} bytes refused`), 552);
  const arrivedAt = Date.now();
  const recipients = session.envelope.rcptTo.map((rcpt) => rcpt.address);
  const message = await parseMail(Buffer.concat(chunks), { id: '', arrivedAt, recipients });
  store.add(message, bytes);
}

function withCode(error: Error, responseCode: number): Error {
  return Object.assign(error, { responseCode });
}

async function listen(server: Server | SMTPServer['server'], port: number, host: string, side: 'SMTP' | 'API'): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException): void => reject(listenError(error, host, port, side));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
}

function listenError(error: NodeJS.ErrnoException, host: string, port: number, side: 'SMTP' | 'API'): MultiAuthError {
  const where = `${host}:${port}`;
  const key = side === 'SMTP' ? 'mail.smtp.port' : 'mail.smtp.api_port';
  if (error.code === 'EADDRINUSE') {
    return new MultiAuthError('MAIL_UNAVAILABLE', `the mail sink cannot listen on ${where} (its ${side}): the port is taken`, {
      hint: `Another process holds ${where}: a mail sink still running (stop it), or another server. Choose a free port in ${key} and point the application at it.`,
    });
  }
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') {
    return new MultiAuthError('MAIL_UNAVAILABLE', `the mail sink cannot listen on ${where} (its ${side}): ${host} is not an address of this machine`, {
      hint: 'Set mail.smtp.host to an address of this machine: 127.0.0.1 (the default) unless the application runs elsewhere.',
    });
  }
  return new MultiAuthError('MAIL_UNAVAILABLE', `the mail sink cannot listen on ${where} (its ${side}): ${error.code ?? error.message}`, {
    hint: `Choose another port in ${key} (ports below 1024 need privileges).`,
  });
}
