import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';

/** One mail a {@link SmtpReceiver} got: the envelope, the bytes on the wire, and mailparser's reading of them. */
export interface ReceivedMail {
  /** RCPT TO addresses, as sent. */
  recipients: string[];
  /** The message as it came (headers and encoded body). */
  raw: string;
  parsed: ParsedMail;
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives, for tests of what the demo server sends. */
export interface SmtpReceiver {
  port: number;
  /** Every mail received so far, in order. */
  mails: ReceivedMail[];
  stop(): Promise<void>;
}

/**
 * Starts an SMTP server (smtp-server, no TLS, no auth) on a free loopback port that keeps every
 * mail, parsed by mailparser. The demo server delivers before it answers, so a mail is here by the
 * time the request that caused it has its answer.
 *
 * @example
 * const receiver = await startSmtpReceiver();
 * demo.mailTo({ port: receiver.port });
 */
export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw).then(
          (parsed) => {
            mails.push({ recipients: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw, parsed });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return { port, mails, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
