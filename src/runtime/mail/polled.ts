import { setTimeout as sleep } from 'node:timers/promises';
import { MultiAuthError } from '../../core/errors.js';
import { normalRecipients, parseMail } from './parse.js';
import type { MailCursor, MailQuery, MailReader, MailWaitResult } from './reader.js';
import { MailWait } from './wait.js';

/** A mail as a catcher's listing shows it, before its source is fetched. */
export interface Listed {
  id: string;
  /** Unix ms when the catcher received it. */
  arrivedAt: number;
  /** Envelope recipients as the catcher shows them (lower-cased here). */
  recipients: string[];
  subject: string;
}

/** Where a polled reader stands: the newest mail it has seen (none: `id` ''). */
export interface Mark {
  id: string;
  arrivedAt: number;
}

/** What a catcher (Mailpit, maildev) gives a {@link polledReader}. */
export interface Catcher {
  /** "Mailpit at http://..." */
  description: string;
  /** The source name cursors carry (`mailpit`, `maildev`). */
  kind: string;
  /** The mail that arrived after `mark`, in arrival order (bounded by the catcher's reader). */
  newSince(mark: Mark, signal?: AbortSignal): Promise<Listed[]>;
  /** The newest mail now, or none. */
  newest(): Promise<Mark>;
  /** A mail's raw source (RFC 5322 bytes). */
  raw(id: string, signal?: AbortSignal): Promise<Buffer>;
}

/** A catcher has no push a Node client can hear without more dependencies: its listing is read this often. */
const POLL_MS = 100;

/**
 * A {@link MailReader} of a mail catcher read through its HTTP API: the listing is read every
 * {@link POLL_MS} ms while a wait lasts, mail for other recipients is summarised from the listing
 * alone, and only mail for the wait's recipient is fetched and parsed (by mailparser, as the sink's).
 * Order is the catcher's arrival time, never the mail's `Date` header.
 *
 * @example
 * const reader = polledReader(mailpitCatcher('http://127.0.0.1:8025'));
 */
export function polledReader(catcher: Catcher): MailReader {
  return {
    description: catcher.description,
    async cursor(): Promise<MailCursor> {
      return { source: catcher.kind, position: JSON.stringify(await catcher.newest()) };
    },
    waitFor(query: MailQuery): Promise<MailWaitResult> {
      // A catcher is seen a listing at a time: "arrived together" spans two of them (maildev stores after it answers 250).
      const wait = new MailWait(query, { quietMs: 2 * POLL_MS, quietMaxMs: 10 * POLL_MS });
      void follow(catcher, wait, markOf(query.after, catcher.kind)).catch((error: unknown) => wait.fail(error));
      return wait.done;
    },
    async close(): Promise<void> {
      // Nothing held: each read is its own request.
    },
  };
}

async function follow(catcher: Catcher, wait: MailWait, start: Mark): Promise<void> {
  let mark = start;
  while (!wait.finished) {
    const listed = await catcher.newSince(mark, wait.stop);
    // A listing's mail arrived together: each is fetched and parsed first, then all are offered at
    // once, so the quiet time for a newer one does not run out while the next is still being read.
    const batch: Array<(() => void)> = [];
    for (const item of listed) {
      if (wait.finished) return;
      const recipients = normalRecipients(item.recipients);
      if (wait.isFor(recipients)) {
        const message = await parseMail(await catcher.raw(item.id, wait.stop), { id: item.id, arrivedAt: item.arrivedAt, recipients });
        batch.push(() => wait.offer(message));
      } else {
        batch.push(() => wait.offerOther({ recipients, subject: item.subject }));
      }
      mark = { id: item.id, arrivedAt: item.arrivedAt };
    }
    for (const offer of batch) offer();
    if (wait.finished) return;
    await sleep(POLL_MS, undefined, { signal: wait.stop }).catch(() => undefined);
  }
}

function markOf(cursor: MailCursor, kind: string): Mark {
  if (cursor.source !== kind) throw new MultiAuthError('INTERNAL', `a cursor of ${cursor.source} was given to a reader of ${kind}`);
  try {
    const mark = JSON.parse(cursor.position) as Mark;
    if (typeof mark.id === 'string' && typeof mark.arrivedAt === 'number') return mark;
  } catch {
    // Falls through.
  }
  throw new MultiAuthError('INTERNAL', `a cursor of ${kind} that does not parse`);
}

/**
 * The items of a newest-first listing that are newer than `mark`: those before `mark.id`, or, when
 * that mail is gone (the inbox was cleared), those that arrived after it. Returned oldest first.
 *
 * @example
 * newerThan([{ id: 'c', arrivedAt: 3, ... }, { id: 'b', arrivedAt: 2, ... }], { id: 'b', arrivedAt: 2 }); // [c]
 */
export function newerThan(newestFirst: readonly Listed[], mark: Mark): { items: Listed[]; reachedMark: boolean } {
  const items: Listed[] = [];
  for (const item of newestFirst) {
    if (mark.id !== '' && item.id === mark.id) return { items: items.reverse(), reachedMark: true };
    if (item.arrivedAt < mark.arrivedAt) {
      // The mark's mail is gone: one that arrived in the same millisecond may be older; it is not taken.
      return { items: items.filter((kept) => kept.arrivedAt > mark.arrivedAt).reverse(), reachedMark: true };
    }
    items.push(item);
  }
  return { items: items.reverse(), reachedMark: false };
}
