import { MultiAuthError } from '../../core/errors.js';
import { redactedUrl } from '../../core/urls.js';
import { getJson, httpGet } from './http-get.js';
import { MAIL_LIMITS } from './limits.js';
import { newerThan, polledReader, type Catcher, type Listed, type Mark } from './polled.js';
import type { MailReader } from './reader.js';

/** Messages per page of Mailpit's listing. */
const PAGE = 50;

/**
 * A {@link MailReader} of a Mailpit (https://mailpit.axllent.org) through its REST API v1: `GET
 * /api/v1/messages?start=&limit=` (newest first: `ID`, `Created`, `To`, `Cc`, `Bcc`, `Subject`) and
 * `GET /api/v1/message/{ID}/raw`. Mailpit shows every envelope recipient among `To`, `Cc` and `Bcc`
 * (a recipient of the envelope alone is listed as `Bcc`); the recipient is matched against those on
 * our side, exactly, and order is `Created`, Mailpit's arrival time.
 *
 * @example
 * const reader = mailpitReader('http://127.0.0.1:8025');
 */
export function mailpitReader(url: string): MailReader {
  const base = url.replace(/\/+$/, '');
  const description = `Mailpit at ${redactedUrl(base).replace(/\/$/, '')}`;
  const catcher: Catcher = {
    description,
    kind: 'mailpit',
    async newest(): Promise<Mark> {
      const [first] = await page(0, 1);
      return first ? { id: first.id, arrivedAt: first.arrivedAt } : { id: '', arrivedAt: 0 };
    },
    async newSince(mark: Mark, signal?: AbortSignal): Promise<Listed[]> {
      const found: Listed[] = [];
      for (let start = 0; start < MAIL_LIMITS.listed; start += PAGE) {
        const listed = await page(start, PAGE, signal);
        const { items, reachedMark } = newerThan(listed, mark);
        // Pages come newest first; `items` of each is oldest first: earlier pages hold newer mail.
        found.unshift(...items);
        if (reachedMark || listed.length < PAGE) break;
      }
      return found;
    },
    async raw(id: string, signal?: AbortSignal): Promise<Buffer> {
      const target = `${base}/api/v1/message/${encodeURIComponent(id)}/raw`;
      const { status, body } = await httpGet(target, { what: description, maxBytes: MAIL_LIMITS.mailBytes, ...(signal ? { signal } : {}) });
      if (status !== 200) throw new MultiAuthError('MAIL_UNAVAILABLE', `${description} cannot be read: GET ${redactedUrl(target)} answered HTTP ${status}`, { hint: 'The mail was deleted while it was read: something else clears this Mailpit during the run.' });
      return body;
    },
  };

  async function page(start: number, limit: number, signal?: AbortSignal): Promise<Listed[]> {
    const target = `${base}/api/v1/messages?start=${start}&limit=${limit}`;
    const answer = (await getJson(target, { what: description, ...(signal ? { signal } : {}) })) as { messages?: unknown } | null;
    if (!answer || !Array.isArray(answer.messages)) throw notMailpit(target);
    return answer.messages.map((item: unknown) => listed(item) ?? throwIt(notMailpit(target)));
  }

  function notMailpit(target: string): MultiAuthError {
    return new MultiAuthError('MAIL_UNAVAILABLE', `${description} cannot be read: GET ${redactedUrl(target)} answered otherwise than Mailpit's API v1`, {
      hint: 'Check that mail.mailpit is the address of Mailpit\'s web interface (its API answers under /api/v1).',
    });
  }

  return polledReader(catcher);
}

function listed(item: unknown): Listed | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const v = item as Record<string, unknown>;
  const arrivedAt = typeof v.Created === 'string' ? Date.parse(v.Created) : NaN;
  if (typeof v.ID !== 'string' || Number.isNaN(arrivedAt)) return undefined;
  return { id: v.ID, arrivedAt, recipients: [...addresses(v.To), ...addresses(v.Cc), ...addresses(v.Bcc)], subject: typeof v.Subject === 'string' ? v.Subject : '' };
}

function addresses(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry: unknown) => {
    const address = (entry as { Address?: unknown } | null)?.Address;
    return typeof address === 'string' ? [address] : [];
  });
}

function throwIt(error: Error): never {
  throw error;
}
