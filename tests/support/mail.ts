import nodemailer from 'nodemailer';

/** One mail as a test sends it: nodemailer's fields, or `raw` RFC 5322 text with its envelope. */
export interface TestMail {
  from?: string;
  to?: string | string[];
  cc?: string;
  subject?: string;
  text?: string;
  html?: string;
  /** The mail's source as is (nodemailer sends it unchanged); needs `envelope`. */
  raw?: string | Buffer;
  /** The SMTP envelope, when it differs from the headers (Bcc, undisclosed recipients). */
  envelope?: { from: string; to: string[] };
  /** Content-Transfer-Encoding of the parts nodemailer builds: 'quoted-printable' or 'base64'. */
  textEncoding?: 'quoted-printable' | 'base64';
}

/**
 * Sends one mail over real SMTP with nodemailer (as an application does) to `host:port`, and
 * resolves once the server accepted its data (end-of-data answered 250).
 *
 * @example
 * await sendTestMail(2525, { to: 'alice@example.test', subject: 'Your code', text: 'Code: 123456' });
 */
export async function sendTestMail(port: number, mail: TestMail, host = '127.0.0.1'): Promise<void> {
  const transport = nodemailer.createTransport({ host, port, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({ from: 'app@example.test', ...mail });
  } finally {
    transport.close();
  }
}
