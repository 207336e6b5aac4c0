import { MultiAuthError } from '../../core/errors.js';
import { redactedUrl } from '../../core/urls.js';
import { getJson, httpGet } from './http-get.js';
import { MAIL_LIMITS } from './limits.js';
import { polledReader, type Catcher, type Listed, type Mark } from './polled.js';
import type { MailReader } from './reader.js';

/**
 * A {@link MailReader} of a maildev (https://github.com/maildev/maildev) through its REST API:
 * `GET /api/email` (maildev 3; `GET /email` in maildev 2): every mail it holds in the order it
 * received them, each with `id`, `subject` and the SMTP envelope's `envelope.to[].address`; and
 * `GET /api/email/{id}/source`. The recipient is matched against the envelope's, on our side,
 * exactly. Order is the listing's, maildev's order of arrival: its `time` is the mail's `Date`
 * header (the current time only when there is none), which is never used; a mail's `arrivedAt` is
 * when this reader first listed it.
 *
 * @example
 * const reader = maildevReader('http://127.0.0.1:1080');
 */
export function maildevReader(url: string): MailReader {
  const base = url.replace(/\/+$/, '');
  const description = `maildev at ${redactedUrl(base).replace(/\/$/, '')}`;
  let api: Promise<string> | undefined;
  const catcher: Catcher = {
    description,
    kind: 'maildev',
    async newest(): Promise<Mark> {
      const all = await listed();
      const last = all[all.length - 1];
      return last ? { id: last.id, arrivedAt: last.arrivedAt } : { id: '', arrivedAt: 0 };
    },
    async newSince(mark: Mark, signal?: AbortSignal): Promise<Listed[]> {
      const all = await listed(signal);
      const at = mark.id === '' ? -1 : all.findIndex((item) => item.id === mark.id);
      // The mark's mail is gone: the inbox was cleared after the cursor was taken, so all it holds came after.
      return all.slice(at + 1);
    },
    async raw(id: string, signal?: AbortSignal): Promise<Buffer> {
      const target = `${base}${await prefix()}/email/${encodeURIComponent(id)}/source`;
      const { status, body } = await httpGet(target, { what: description, maxBytes: MAIL_LIMITS.mailBytes, ...(signal ? { signal } : {}) });
      if (status !== 200) throw new MultiAuthError('MAIL_UNAVAILABLE', `${description} cannot be read: GET ${redactedUrl(target)} answered HTTP ${status}`, { hint: 'The mail was deleted while it was read: something else clears this maildev during the run.' });
      return body;
    },
  };

  /** `/api` for maildev 3 (it answers `/api/healthz`), '' for maildev 2. */
  function prefix(): Promise<string> {
    api ??= httpGet(`${base}/api/healthz`, { what: description, maxBytes: 1024 }).then(({ status }) => (status === 200 ? '/api' : ''));
    return api.catch((error: unknown) => {
      api = undefined;
      throw error;
    });
  }

  /** Every mail maildev holds (the last `listed` of them), oldest first, as received. */
  async function listed(signal?: AbortSignal): Promise<Listed[]> {
    const target = `${base}${await prefix()}/email`;
    const answer = await getJson(target, { what: description, ...(signal ? { signal } : {}) });
    if (!Array.isArray(answer)) throw notMaildev(target);
    const now = Date.now();
    return answer.slice(-MAIL_LIMITS.listed).map((item: unknown) => listedItem(item, now) ?? throwIt(notMaildev(target)));
  }

  function notMaildev(target: string): MultiAuthError {
    return new MultiAuthError('MAIL_UNAVAILABLE', `${description} cannot be read: GET ${redactedUrl(target)} answered otherwise than maildev's API`, {
      hint: 'Check that mail.maildev is the address of maildev\'s web interface (its API answers under it).',
    });
  }

  return polledReader(catcher);
}

function listedItem(item: unknown, seenAt: number): Listed | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const v = item as Record<string, unknown>;
  if (typeof v.id !== 'string') return undefined;
  const envelope = v.envelope as { to?: unknown } | null | undefined;
  const to = Array.isArray(envelope?.to) ? envelope.to : [];
  const recipients = to.flatMap((entry: unknown) => {
    const address = (entry as { address?: unknown } | null)?.address;
    return typeof address === 'string' ? [address] : [];
  });
  return { id: v.id, arrivedAt: seenAt, recipients, subject: typeof v.subject === 'string' ? v.subject : '' };
}

function throwIt(error: Error): never {
  throw error;
}
