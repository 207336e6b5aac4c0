import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { MultiAuthError } from '../../core/errors.js';
import { getJson } from './http-get.js';
import { MAIL_LIMITS } from './limits.js';
import { asMailMessage, asSummary } from './message-shape.js';
import type { MailCursor, MailQuery, MailReader, MailWaitResult } from './reader.js';
import { SINK_ROUTES, SINK_SERVICE } from './sink-api.js';
import { MailWait } from './wait.js';

/** The bytes one server-sent event may take: a whole bounded message, as JSON, with room. */
const MAX_EVENT_BYTES = 4 * MAIL_LIMITS.partChars + 1024 * 1024;

/** Where a sink is: its SMTP address (for messages) and its API's port on 127.0.0.1. */
export interface SinkAddress {
  host: string;
  port: number;
  apiPort: number;
}

/**
 * What answers on a sink's API port: the sink (with its epoch), nothing (`none`), or another server.
 *
 * @example
 * await probeSink(2526); // { kind: 'sink', epoch: '9f…' }
 */
export async function probeSink(apiPort: number): Promise<{ kind: 'sink'; epoch: string } | { kind: 'none' } | { kind: 'other'; why: string }> {
  try {
    const health = await getJson(`http://127.0.0.1:${apiPort}${SINK_ROUTES.health}`, { what: 'the mail sink', timeoutMs: 5_000, maxBytes: 64 * 1024 });
    const answer = health as { service?: unknown; epoch?: unknown } | null;
    if (answer && answer.service === SINK_SERVICE && typeof answer.epoch === 'string') return { kind: 'sink', epoch: answer.epoch };
    return { kind: 'other', why: 'it answers, but is no mail sink of playwright-multiauth' };
  } catch (error) {
    if (error instanceof MultiAuthError && /ECONNREFUSED/.test(error.message)) return { kind: 'none' };
    return { kind: 'other', why: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * A {@link MailReader} of a running sink, over its API: `waitFor` holds one stream open and the sink
 * pushes each mail the moment it arrives (no polling). `onClose` runs at `close()` (an in-process
 * sink the reader started stops then).
 *
 * @example
 * const reader = sinkReader({ host: '127.0.0.1', port: 2525, apiPort: 2526 });
 * const cursor = await reader.cursor();
 * const result = await reader.waitFor({ to: 'alice@example.test', after: cursor, timeoutMs: 30_000 });
 */
export function sinkReader(address: SinkAddress, onClose?: () => Promise<void>): MailReader {
  const description = `the mail sink on ${address.host}:${address.port}`;
  const base = `http://127.0.0.1:${address.apiPort}`;
  const open = new Set<ClientRequest>();
  return {
    description,
    async cursor(): Promise<MailCursor> {
      const answer = (await getJson(`${base}${SINK_ROUTES.cursor}`, { what: description, maxBytes: 64 * 1024 })) as { epoch?: unknown; seq?: unknown } | null;
      if (!answer || typeof answer.epoch !== 'string' || !Number.isSafeInteger(answer.seq)) {
        throw new MultiAuthError('MAIL_UNAVAILABLE', `${description} cannot be read: its API on 127.0.0.1:${address.apiPort} answered otherwise than a mail sink`, {
          hint: 'Another server holds mail.smtp.api_port: stop it, or choose another api_port.',
        });
      }
      return { source: 'sink', position: `${answer.epoch}:${answer.seq as number}` };
    },
    waitFor(query: MailQuery): Promise<MailWaitResult> {
      const wait = new MailWait(query);
      const [epoch = '', seq = '0'] = query.after.source === 'sink' ? query.after.position.split(':') : [];
      const url = `${base}${SINK_ROUTES.stream}?${new URLSearchParams({ to: query.to.trim().toLowerCase(), after: /^\d+$/.test(seq) ? seq : '0', epoch })}`;
      const request = httpRequest(url, { headers: { accept: 'text/event-stream' } }, (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          return wait.fail(new MultiAuthError('MAIL_UNAVAILABLE', `${description} cannot be read: its API answered HTTP ${response.statusCode}`, { hint: 'Check that mail.smtp.api_port is the sink\'s.' }));
        }
        readEvents(response, wait, description);
      });
      open.add(request);
      request.on('error', (error: NodeJS.ErrnoException) => {
        wait.fail(new MultiAuthError('MAIL_UNAVAILABLE', `${description} cannot be read: its API on 127.0.0.1:${address.apiPort} failed (${error.code ?? error.message})`, {
          hint: 'The sink stopped during the run: it must live for the whole run (webServer: mailSink() in playwright.config.ts).',
        }));
      });
      request.end();
      wait.stop.addEventListener('abort', () => {
        open.delete(request);
        request.destroy();
      }, { once: true });
      return wait.done;
    },
    async close(): Promise<void> {
      for (const request of open) request.destroy();
      open.clear();
      await onClose?.();
    },
  };
}

/** Reads server-sent events into the wait; the stream ending before the wait is decided is a failure. */
function readEvents(response: IncomingMessage, wait: MailWait, description: string): void {
  let buffer = '';
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => {
    buffer += chunk;
    if (buffer.length > MAX_EVENT_BYTES) {
      response.destroy();
      return wait.fail(new MultiAuthError('MAIL_UNAVAILABLE', `${description} sent an event larger than ${MAX_EVENT_BYTES} bytes`));
    }
    for (let end = buffer.indexOf('\n\n'); end >= 0 && !wait.finished; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      dispatch(block, wait);
    }
  });
  response.on('close', () => {
    if (!wait.finished) wait.fail(new MultiAuthError('MAIL_UNAVAILABLE', `${description} closed the stream of mail before the wait ended`, { hint: 'The sink stopped during the run: it must live for the whole run (webServer: mailSink() in playwright.config.ts).' }));
  });
}

function dispatch(block: string, wait: MailWait): void {
  let event = 'message';
  let data = '';
  for (const line of block.split('\n')) {
    if (line.startsWith('event: ')) event = line.slice(7);
    else if (line.startsWith('data: ')) data += line.slice(6);
  }
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return;
  }
  if (event === 'mail') {
    const message = asMailMessage(value);
    if (message) wait.offer(message);
  } else if (event === 'other') {
    const summary = asSummary(value);
    if (summary) wait.offerOther(summary);
  }
}
