import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { MultiAuthError } from '../../core/errors.js';
import { redactedUrl } from '../../core/urls.js';
import { MAIL_LIMITS } from './limits.js';

/** A mailbox API's answer: status and body, read within the bounds. */
export interface GetAnswer {
  status: number;
  body: Buffer;
}

/** Options of {@link httpGet}. */
export interface GetOptions {
  /** Names the mailbox in errors ("Mailpit at http://..."). */
  what: string;
  timeoutMs?: number;
  maxBytes?: number;
  signal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * GETs a mailbox API's URL (plain node:http/https: loopback and Docker Compose services, no proxy),
 * reading at most `maxBytes`. A connection that fails, a timeout or a larger answer is a
 * `MAIL_UNAVAILABLE` error naming the URL (without query values) and what to check.
 *
 * @example
 * const { status, body } = await httpGet('http://127.0.0.1:8025/api/v1/messages?limit=50', { what: 'Mailpit at http://127.0.0.1:8025' });
 */
export async function httpGet(url: string, options: GetOptions): Promise<GetAnswer> {
  const maxBytes = options.maxBytes ?? MAIL_LIMITS.answerBytes;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise<GetAnswer>((resolve, reject) => {
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const fail = (why: string, hint: string): void => {
      request.destroy();
      reject(new MultiAuthError('MAIL_UNAVAILABLE', `${options.what} cannot be read: GET ${redactedUrl(url)} ${why}`, { hint }));
    };
    const request = send(target, { method: 'GET', headers: { accept: 'application/json' }, timeout: timeoutMs, ...(options.signal ? { signal: options.signal } : {}) }, (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > maxBytes) return fail(`answered more than ${maxBytes} bytes`, 'Clear old mail from the mailbox, or read it through the package\'s own sink (mail.smtp).');
        chunks.push(chunk);
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
      response.on('error', (error: NodeJS.ErrnoException) => fail(`broke off (${error.code ?? error.message})`, 'Check that the mailbox is running and reachable from here.'));
    });
    request.on('timeout', () => fail(`got no answer in ${timeoutMs / 1000} s`, 'Check that the mailbox is running and reachable from here.'));
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (options.signal?.aborted) return reject(options.signal.reason);
      fail(`failed (${error.code ?? error.message})`, 'Check that the mailbox is running and that the URL in the config (mail) is its address as seen from here.');
    });
    request.end();
  });
}

/**
 * A JSON answer of a mailbox API: its body parsed, or `MAIL_UNAVAILABLE` naming the URL when the
 * status is not 200 or the body is not JSON (the URL is likely another server's).
 *
 * @example
 * const list = await getJson('http://127.0.0.1:1080/email', { what: 'maildev at http://127.0.0.1:1080' });
 */
export async function getJson(url: string, options: GetOptions): Promise<unknown> {
  const { status, body } = await httpGet(url, options);
  const hint = 'Check that the URL in the config (mail) is the mailbox\'s web address (its API answers under it).';
  if (status !== 200) throw new MultiAuthError('MAIL_UNAVAILABLE', `${options.what} cannot be read: GET ${redactedUrl(url)} answered HTTP ${status}`, { hint });
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    throw new MultiAuthError('MAIL_UNAVAILABLE', `${options.what} cannot be read: GET ${redactedUrl(url)} answered something that is not JSON`, { hint });
  }
}
