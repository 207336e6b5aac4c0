import { MAIL_LIMITS } from './limits.js';
import type { MailMessage } from './reader.js';

/** A mail the sink holds: its sequence number (the cursor's unit), the message, its raw size. */
export interface StoredMail {
  seq: number;
  message: MailMessage;
  bytes: number;
}

/**
 * The sink's mailbox: in memory, for the sink's life only, in arrival order, bounded in count and
 * bytes (the oldest go first). Each mail gets the next sequence number; a cursor is the last number
 * given. Listeners hear of each mail as it is added, which is what pushes a waiting reader's answer.
 *
 * @example
 * const store = new MailStore();
 * const off = store.onMail((mail) => console.log(mail.seq));
 * store.add(message, raw.length);
 */
export class MailStore {
  private readonly mails: StoredMail[] = [];
  private readonly listeners = new Set<(mail: StoredMail) => void>();
  private lastSeq = 0;
  private bytes = 0;

  constructor(private readonly limits: { mails: number; storeBytes: number } = MAIL_LIMITS) {}

  /** The sequence number of the last mail received (0 before the first). */
  get last(): number {
    return this.lastSeq;
  }

  /** Adds a mail (its `id` becomes its sequence number) and tells every listener. */
  add(message: MailMessage, bytes: number): StoredMail {
    const seq = ++this.lastSeq;
    const mail: StoredMail = { seq, message: { ...message, id: String(seq) }, bytes };
    this.mails.push(mail);
    this.bytes += bytes;
    while (this.mails.length > this.limits.mails || (this.bytes > this.limits.storeBytes && this.mails.length > 1)) {
      this.bytes -= this.mails.shift()!.bytes;
    }
    for (const listener of [...this.listeners]) listener(mail);
    return mail;
  }

  /** The mail held after sequence number `seq`, in arrival order. */
  after(seq: number): StoredMail[] {
    // Sequence numbers are consecutive: the first one after `seq` is found by arithmetic.
    const first = this.mails[0]?.seq ?? this.lastSeq + 1;
    return this.mails.slice(Math.max(0, seq + 1 - first));
  }

  /** Calls `listener` for each mail added from now on; returns what stops it. */
  onMail(listener: (mail: StoredMail) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
